import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { toastError } from '#/lib/error-toast'
import { sendWith, showServerFieldErrors, useAppForm } from '#/lib/form'
import { useTRPC } from '#/lib/trpc'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import { oidcConnectionSchema, samlConnectionSchema } from '../schemas'

export type Protocol = 'saml' | 'oidc'

export interface ConnectionDefaults {
  protocol: Protocol
  domain: string
  issuer: string
  clientId: string
}

// One form for both protocols: the fields of the chosen one are checked by that protocol's schema.
const connectionSchema = z
  .object({
    protocol: z.enum(['saml', 'oidc']),
    domain: z.string(),
    source: z.enum(['xml', 'url']),
    metadataUrl: z.string(),
    metadataXml: z.string(),
    issuer: z.string(),
    clientId: z.string(),
    clientSecret: z.string(),
  })
  .superRefine((value, ctx) => {
    const checked =
      value.protocol === 'saml' ? samlConnectionSchema.safeParse(value) : oidcConnectionSchema.safeParse(value)
    if (checked.success) return
    for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
  })

const formFields = ['domain', 'metadataUrl', 'metadataXml', 'issuer', 'clientId', 'clientSecret'] as const

/** Adds or changes the organization's connection: SAML metadata (URL or XML) or an OpenID Connect client. */
export function ConnectionForm({
  defaults,
  hasSecret,
  onProtocolChange,
  onDone,
  onCancel,
}: {
  defaults: ConnectionDefaults
  /** Editing an OpenID Connect connection: an empty secret keeps the saved one. */
  hasSecret: boolean
  /** The page shows only the chosen protocol's values for the identity provider. */
  onProtocolChange?: (protocol: Protocol) => void
  onDone: () => void
  onCancel?: () => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const saved = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.sso.get.queryKey() })
    toast.success(m.sso_saved_toast())
    onDone()
  }
  const saveSaml = useMutation(trpc.sso.saveSaml.mutationOptions({ onSuccess: saved }))
  const saveOidc = useMutation(trpc.sso.saveOidc.mutationOptions({ onSuccess: saved }))
  const form = useAppForm({
    defaultValues: {
      protocol: defaults.protocol as Protocol,
      domain: defaults.domain,
      source: 'url' as 'url' | 'xml',
      metadataUrl: '',
      metadataXml: '',
      issuer: defaults.issuer,
      clientId: defaults.clientId,
      clientSecret: '',
    },
    validators: { onDynamic: connectionSchema },
    onSubmit: async ({ value, formApi }) => {
      try {
        if (value.protocol === 'saml') await saveSaml.mutateAsync(samlConnectionSchema.parse(value))
        else await saveOidc.mutateAsync(oidcConnectionSchema.parse(value))
      } catch (error) {
        if (!showServerFieldErrors(formApi, error, formFields)) toastError(error)
      }
    },
  })
  return (
    <form method="post" onSubmit={sendWith(form)} noValidate className="grid gap-4" data-testid="sso-connection-form">
      <form.AppField name="protocol" listeners={{ onChange: ({ value }) => onProtocolChange?.(value) }}>
        {(field) => (
          <field.SelectField label={m.sso_protocol_label()}>
            <option value="saml">{m.sso_protocol_saml()}</option>
            <option value="oidc">{m.sso_protocol_oidc()}</option>
          </field.SelectField>
        )}
      </form.AppField>
      <form.AppField name="domain">
        {(field) => (
          <field.TextField
            label={m.sso_domain_label()}
            hint={m.sso_domain_hint()}
            placeholder="example.com"
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </form.AppField>
      <form.Subscribe selector={(state) => [state.values.protocol, state.values.source] as const}>
        {([protocol, source]) =>
          protocol === 'saml' ? (
            <>
              <form.AppField name="source">
                {(field) => (
                  <field.SelectField label={m.sso_metadata_source_label()}>
                    <option value="url">{m.sso_metadata_source_url()}</option>
                    <option value="xml">{m.sso_metadata_source_xml()}</option>
                  </field.SelectField>
                )}
              </form.AppField>
              {source === 'url' ? (
                <form.AppField name="metadataUrl">
                  {(field) => (
                    <field.TextField
                      label={m.sso_metadata_url_label()}
                      hint={m.sso_metadata_url_hint()}
                      type="url"
                      placeholder="https://idp.example.com/metadata"
                      autoComplete="off"
                    />
                  )}
                </form.AppField>
              ) : (
                <form.AppField name="metadataXml">
                  {(field) => (
                    <field.TextAreaField
                      label={m.sso_metadata_xml_label()}
                      rows={8}
                      spellCheck={false}
                      className="font-mono text-xs"
                      placeholder='<EntityDescriptor entityID="…">'
                    />
                  )}
                </form.AppField>
              )}
            </>
          ) : (
            <>
              <form.AppField name="issuer">
                {(field) => (
                  <field.TextField
                    label={m.sso_issuer_label()}
                    hint={m.sso_issuer_hint({ path: '/.well-known/openid-configuration' })}
                    type="url"
                    placeholder="https://login.example.com"
                    autoComplete="off"
                  />
                )}
              </form.AppField>
              <form.AppField name="clientId">
                {(field) => <field.TextField label={m.sso_client_id_label()} autoComplete="off" spellCheck={false} />}
              </form.AppField>
              <form.AppField name="clientSecret">
                {(field) => (
                  <field.TextField
                    label={m.sso_client_secret_label()}
                    hint={hasSecret ? m.sso_client_secret_keep() : undefined}
                    type="password"
                    autoComplete="new-password"
                  />
                )}
              </form.AppField>
            </>
          )
        }
      </form.Subscribe>
      <div className="flex flex-wrap gap-2">
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.sso_save()}>{m.sso_save()}</form.SubmitButton>
        </form.AppForm>
        {onCancel ? (
          <Button type="button" variant="ghost" onClick={onCancel}>
            {m.sso_cancel_edit()}
          </Button>
        ) : null}
      </div>
    </form>
  )
}
