import { formOptions } from '@tanstack/react-form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { appSettings } from '#/app-settings.gen'
import { PageHeader } from '#/components/page-header'
import { SettingsSection } from '#/components/settings-section'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#/components/ui/alert-dialog'
import type { AppSettingsDefinition } from '#/lib/app-settings'
import { appErrorOf, describeError } from '#/lib/errors'
import { sendWith, showServerFieldErrors, useAppForm, withForm } from '#/lib/form'
import { type SiteSettingsInput, siteSettingsInput } from '#/lib/site-settings'
import { themeChoices } from '#/lib/theme'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import type { AppRouter } from '#/server/trpc/root'
import { ChangeHistory } from './change-history'
import { settingLabels, signInMethodLabel } from './setting-labels'

const themeLabels = { light: m.theme_light, dark: m.theme_dark, system: m.theme_system }
const textFields = [
  'productName',
  'sourceRepositoryUrl',
  'docsEditBranch',
  'defaultTheme',
  'analyticsTimeZone',
] as const
/**
 * The zone names the browser knows, read after hydration: Node's list and the browser's differ, so rendering them on
 * the server would not match. The server checks the one chosen against the database's list.
 */
function useTimeZoneChoices(): string[] {
  const [choices, setChoices] = useState<string[]>(['UTC'])
  useEffect(() => setChoices(['UTC', ...(Intl.supportedValuesOf?.('timeZone') ?? [])]), [])
  return choices
}

/** Every site setting in one form, the switches of sign-in and sign-up included, with the history of changes below. */
export function ConfigurationScreen() {
  const trpc = useTRPC()
  const config = useQuery(trpc.configuration.get.queryOptions())
  return (
    <>
      <PageHeader title={m.console_configuration()} description={m.config_description()} />
      {config.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {describeError(config.error)}
        </p>
      ) : config.data ? (
        <ConfigurationForm configuration={config.data} />
      ) : (
        <div className="h-96 animate-pulse rounded-xl bg-muted" aria-hidden />
      )}
      <ChangeHistory />
    </>
  )
}

type Configuration = inferRouterOutputs<AppRouter>['configuration']['get']

const configurationFormOptions = formOptions({
  defaultValues: {} as SiteSettingsInput,
  validators: { onDynamic: siteSettingsInput },
})

function ConfigurationForm({ configuration }: { configuration: Configuration }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const update = useMutation(trpc.configuration.update.mutationOptions())
  const [confirming, setConfirming] = useState<{ values: SiteSettingsInput; method: string } | null>(null)
  const { updatedAt: _, ...stored } = configuration.settings

  const save = async (values: SiteSettingsInput, confirmSignInMethodOff: boolean) => {
    try {
      const result = await update.mutateAsync({ ...values, confirmSignInMethodOff })
      toast.success(result.changed.length > 0 ? m.config_saved() : m.config_no_change())
      // The header, themes and sign-in buttons read the public settings; the history lists the change.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.settings.public.queryKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.configuration.pathKey() }),
      ])
    } catch (error) {
      const refusal = appErrorOf(error)
      if (refusal?.appCode === 'CONFIRM_SIGN_IN_METHOD_OFF') {
        setConfirming({ values, method: refusal.params.method ?? '' })
        return
      }
      if (!showServerFieldErrors(form, error, textFields)) toast.error(describeError(error))
    }
  }

  const form = useAppForm({
    ...configurationFormOptions,
    defaultValues: stored as SiteSettingsInput,
    onSubmit: ({ value }) => save(value, false),
  })

  return (
    <form aria-label={m.console_configuration()} noValidate onSubmit={sendWith(form)}>
      <ProductSections form={form} />
      <SignInSections form={form} configured={configuration.configured} />
      <DashboardSection form={form} />
      <AppSettingsSections form={form} />
      <div className="mt-6 flex justify-end">
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.config_saving()}>{m.config_save()}</form.SubmitButton>
        </form.AppForm>
      </div>
      <ConfirmSignInMethodOffDialog
        method={confirming?.method ?? null}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const values = confirming?.values
          setConfirming(null)
          if (values) void save(values, true)
        }}
      />
    </form>
  )
}

/** The product's name, theme and source, and how the docs link back to it. */
const ProductSections = withForm({
  ...configurationFormOptions,
  render: function ProductSectionsRender({ form }) {
    return (
      <>
        <SettingsSection id="config-product" title={m.config_section_product()}>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <form.AppField name="productName">
              {(field) => <field.TextField label={m.config_product_name()} hint={m.config_product_name_hint()} />}
            </form.AppField>
            <form.AppField name="defaultTheme">
              {(field) => (
                <field.SelectField label={m.config_default_theme()} hint={m.config_default_theme_hint()}>
                  {themeChoices.map((theme) => (
                    <option key={theme} value={theme}>
                      {themeLabels[theme]()}
                    </option>
                  ))}
                </field.SelectField>
              )}
            </form.AppField>
            <div className="sm:col-span-2">
              <form.AppField name="sourceRepositoryUrl">
                {(field) => <field.TextField label={m.config_source_repository()} type="url" />}
              </form.AppField>
            </div>
          </div>
        </SettingsSection>

        <SettingsSection id="config-docs" title={m.config_section_docs()}>
          <div className="mt-4 grid gap-4">
            <form.AppField name="docsEditBranch">
              {(field) => <field.TextField label={m.config_docs_edit_branch()} className="sm:max-w-xs" />}
            </form.AppField>
            <form.AppField name="docsFooterNavigation">
              {(field) => <field.CheckboxField label={m.config_docs_footer()} />}
            </form.AppField>
          </div>
        </SettingsSection>
      </>
    )
  },
})

/** Which sign-in methods are offered, each saying which variables it still needs; who may sign up. */
const SignInSections = withForm({
  ...configurationFormOptions,
  props: {} as { configured: Configuration['configured'] },
  render: function SignInSectionsRender({ form, configured }) {
    const notConfigured = (variables: string) => m.config_not_configured({ variables })
    const methodSwitches = [
      ['authEmailPassword', undefined],
      ['authUsername', undefined],
      ['authGithub', configured.github ? undefined : notConfigured('GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET')],
      ['authGoogle', configured.google ? undefined : notConfigured('GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET')],
      ['authGoogleOneTap', configured.google ? undefined : notConfigured('GOOGLE_CLIENT_ID')],
      [
        'authGenericOauth',
        configured.oauthProviders.length > 0
          ? configured.oauthProviders.map((provider) => provider.name).join(', ')
          : notConfigured('OAUTH_PROVIDERS'),
      ],
      ['authMagicLink', undefined],
      ['authEmailOtp', undefined],
      ['authPasskey', undefined],
      ['authAnonymous', undefined],
    ] as const
    return (
      <>
        <SettingsSection
          id="config-sign-in"
          title={m.config_section_sign_in()}
          subtitle={m.config_section_sign_in_hint()}
        >
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            {methodSwitches.map(([name, hint]) => (
              <form.AppField key={name} name={name}>
                {(field) => <field.CheckboxField label={settingLabels[name]()} hint={hint} />}
              </form.AppField>
            ))}
          </div>
        </SettingsSection>

        <SettingsSection id="config-sign-up" title={m.config_section_sign_up()}>
          <div className="mt-4 grid gap-4">
            <form.AppField name="signUpOpen">
              {(field) => <field.CheckboxField label={m.config_sign_up_open()} hint={m.config_sign_up_open_hint()} />}
            </form.AppField>
            <form.AppField name="emailVerificationRequired">
              {(field) => (
                <field.CheckboxField
                  label={m.config_email_verification_required()}
                  hint={m.config_email_verification_required_hint()}
                />
              )}
            </form.AppField>
          </div>
        </SettingsSection>
      </>
    )
  },
})

/** The time zone the Dashboard's days are cut in. */
const DashboardSection = withForm({
  ...configurationFormOptions,
  render: function DashboardSectionRender({ form }) {
    const timeZoneChoices = useTimeZoneChoices()
    return (
      <SettingsSection
        id="config-dashboard"
        title={m.config_section_dashboard()}
        subtitle={m.config_section_dashboard_hint()}
      >
        <div className="mt-4 grid gap-4">
          <form.AppField name="analyticsTimeZone">
            {(field) => (
              <field.TextField
                label={m.config_analytics_time_zone()}
                hint={m.config_analytics_time_zone_hint()}
                className="sm:max-w-xs"
                list="config-time-zones"
                autoComplete="off"
                spellCheck={false}
              />
            )}
          </form.AppField>
          <datalist id="config-time-zones">
            {timeZoneChoices.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </div>
      </SettingsSection>
    )
  },
})

/** Keyed as the generated list keys them (the app's folder), as the form's values and the procedure's input are. */
const appDefinitions = Object.entries(appSettings as Readonly<Record<string, AppSettingsDefinition>>)

/** Each installed app's settings (its settings.ts), a section each: switches, and lines of text. */
const AppSettingsSections = withForm({
  ...configurationFormOptions,
  render: function AppSettingsSectionsRender({ form }) {
    return (
      <>
        {appDefinitions.map(([app, definition]) => (
          <SettingsSection
            key={app}
            id={`config-app-${app}`}
            title={definition.title()}
            subtitle={definition.description?.()}
          >
            <div className="mt-4 grid gap-4">
              {Object.entries(definition.fields).map(([key, setting]) => (
                // The form's type knows no app by name; the path is the one the procedure checks.
                <form.AppField key={key} name={`apps.${app}.${key}` as 'productName'}>
                  {(field) =>
                    typeof setting.default === 'boolean' ? (
                      <field.CheckboxField label={setting.label()} hint={setting.hint?.()} />
                    ) : (
                      <field.TextField label={setting.label()} hint={setting.hint?.()} className="sm:max-w-md" />
                    )
                  }
                </form.AppField>
              ))}
            </div>
          </SettingsSection>
        ))}
      </>
    )
  },
})

/** Switching off the sign-in method this session used asks first: the admin could lock themselves out. */
function ConfirmSignInMethodOffDialog({
  method,
  onCancel,
  onConfirm,
}: {
  /** The method being turned off, or null while nothing asks. */
  method: string | null
  onCancel: () => void
  onConfirm: () => void
}) {
  return (
    <AlertDialog open={method !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      <AlertDialogContent>
        <AlertDialogTitle>{m.config_confirm_title()}</AlertDialogTitle>
        <AlertDialogDescription>
          {m.config_confirm_body({ method: signInMethodLabel(method ?? '') })}
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.config_confirm_cancel()}</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>{m.config_confirm_action()}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
