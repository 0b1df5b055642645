import { useNavigate } from '@tanstack/react-router'
import { type ReactNode, useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { OrganizationAvatar } from '#/components/organization-avatar'
import { PageHeader } from '#/components/page-header'
import { SettingsSection } from '#/components/settings-section'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { sendWith, useAppForm } from '#/lib/form'
import { currentIntlLocale } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { oneFinalStop } from '#/lib/sentence'
import { m } from '#/paraglide/messages'
import { organizationFormSchema } from '../organization-rules'
import { OrganizationFields, organizationFieldOfCode, organizationFormOptions } from './organization-fields'
import { showAuthFieldError } from './show-auth-field-error'

function DetailsForm() {
  const { organization } = useConsoleSession()
  const refresh = useAuthRefresh()
  const [failure, setFailure] = useState<string | null>(null)
  const form = useAppForm({
    ...organizationFormOptions,
    defaultValues: { name: organization.name, slug: organization.slug },
    onSubmit: async ({ value, formApi }) => {
      const values = organizationFormSchema.parse(value)
      setFailure(null)
      const { error } = await authClient.organization.update({
        organizationId: organization.id,
        data: { name: values.name, slug: values.slug },
      })
      if (error) {
        if (!showAuthFieldError(formApi, error, organizationFieldOfCode)) setFailure(describeAuthError(error))
        return
      }
      await refresh.organizations()
      toast.success(m.org_saved())
    },
  })

  return (
    <form
      method="post"
      noValidate
      aria-label={m.org_details_title()}
      className="mt-4 grid gap-4"
      onSubmit={sendWith(form)}
    >
      <OrganizationFields form={form} />
      <FormNotice>{failure}</FormNotice>
      <div>
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.saving()}>{m.save()}</form.SubmitButton>
        </form.AppForm>
      </div>
    </form>
  )
}

function LeaveOrganization() {
  const { organization } = useConsoleSession()
  const refresh = useAuthRefresh()
  const navigate = useNavigate()
  const leave = async () => {
    const { error } = await authClient.organization.leave({ organizationId: organization.id })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(oneFinalStop(m.org_left({ name: organization.name })))
    // The console moves the session to another organization (or a new personal workspace) on the next load.
    await refresh.organizationSwitched()
    await navigate({ to: '/console' })
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline">{m.org_leave()}</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{m.org_leave_confirm_title({ name: organization.name })}</AlertDialogTitle>
        <AlertDialogDescription>{m.org_leave_confirm_body()}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.cancel()}</AlertDialogCancel>
          <Button variant="destructive" onClick={leave}>
            {m.org_leave()}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** Deleting asks for the organization's name, typed out, so it is never one mistaken click. */
function DeleteOrganization() {
  const { organization } = useConsoleSession()
  const refresh = useAuthRefresh()
  const navigate = useNavigate()
  const matches = (typed: string) => typed.trim() === organization.name.trim()
  const form = useAppForm({
    defaultValues: { confirmName: '' },
    onSubmit: async ({ value }) => {
      if (!matches(value.confirmName)) return
      const { error } = await authClient.organization.delete({ organizationId: organization.id })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      toast.success(m.org_deleted({ name: organization.name }))
      await refresh.organizations()
      await navigate({ to: '/console' })
    },
  })

  return (
    <AlertDialog onOpenChange={() => form.reset()}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">{m.org_delete()}</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{m.org_delete_confirm_title({ name: organization.name })}</AlertDialogTitle>
        <AlertDialogDescription>{m.org_delete_confirm_body()}</AlertDialogDescription>
        <form className="grid gap-4" aria-label={m.org_delete()} onSubmit={sendWith(form)}>
          <form.AppField name="confirmName">
            {(field) => (
              <field.TextField label={m.org_delete_type_name({ name: organization.name })} autoComplete="off" />
            )}
          </form.AppField>
          <AlertDialogFooter>
            <AlertDialogCancel type="button">{m.cancel()}</AlertDialogCancel>
            <form.Subscribe selector={(state) => matches(state.values.confirmName) && !state.isSubmitting}>
              {(canDelete) => (
                <Button type="submit" variant="destructive" disabled={!canDelete}>
                  {m.org_delete_submit()}
                </Button>
              )}
            </form.Subscribe>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** The active organization: its details (editable with `organization: update`), leaving it, and deleting it. */
export function OrganizationSettings({
  logoPicker,
}: {
  /** The logo's upload, composed in by the page (src/routes/console/organization/index.tsx) from the uploads feature. */
  logoPicker?: (organization: { hasLogo: boolean }) => ReactNode
}) {
  const { organization, member } = useConsoleSession()
  const canUpdate = useCan({ organization: ['update'] })
  const canDelete = useCan({ organization: ['delete'] })
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  return (
    <div className="max-w-2xl">
      <PageHeader title={m.org_settings_title()} description={m.org_settings_description()} />
      <SettingsSection id="details" title={m.org_details_title()}>
        <div className="mt-4 flex items-center gap-4">
          <OrganizationAvatar organization={organization} />
          <dl className="grid min-w-0 gap-1 text-sm [overflow-wrap:anywhere]">
            <dt className="sr-only">{m.org_name_label()}</dt>
            <dd className="text-base font-medium" data-testid="organization-name">
              {organization.name}
            </dd>
            <dt className="sr-only">{m.org_slug_label()}</dt>
            <dd className="font-mono text-muted-foreground">{organization.slug}</dd>
            <dt className="sr-only">{m.org_your_role()}</dt>
            <dd data-testid="organization-role">
              {m.org_your_role_is({ role: rolesLabel(member.role) })} ·{' '}
              {m.org_created_on({ date: date.format(new Date(organization.createdAt)) })}
            </dd>
          </dl>
        </div>
        {canUpdate ? logoPicker?.({ hasLogo: Boolean(organization.logo) }) : null}
        {canUpdate ? (
          <DetailsForm key={organization.id} />
        ) : (
          <p className="mt-4 text-sm text-muted-foreground">{m.org_details_read_only()}</p>
        )}
      </SettingsSection>
      <SettingsSection id="leave" title={m.org_leave_title()} subtitle={m.org_leave_subtitle()}>
        <div className="mt-4">
          <LeaveOrganization />
        </div>
      </SettingsSection>
      {canDelete ? (
        <SettingsSection id="delete" title={m.org_delete_title()} subtitle={m.org_delete_subtitle()}>
          <div className="mt-4">
            <DeleteOrganization />
          </div>
        </SettingsSection>
      ) : null}
    </div>
  )
}
