import { Building2Icon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authPageHref, oauthErrorCallbackPath } from '#/features/auth'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { sendWith, useAppForm } from '#/lib/form'
import { getLocale } from '#/lib/i18n'
import { safeRedirectPath } from '#/lib/safe-redirect'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { ssoSignInSchema } from '../schemas'
import './sso-sign-in-messages'

/** The plugin's refusals of a sign-in start, by what the person typed. */
function describeSsoStartError(error: { code?: string; message?: string; status: number }): string {
  if (error.status === 404) return m.sso_error_not_found()
  if (error.status === 401) return m.sso_error_not_ready()
  return describeAuthError(error)
}

/**
 * "Sign in with SSO": a work email (its domain finds the connection) or an organization's URL name, then on to that
 * organization's identity provider. A refused answer comes back to the sign-in page (`?oauth=failed&error=`).
 */
export function SsoSignIn({ redirect }: { redirect: string | undefined }) {
  const [open, setOpen] = useState(false)
  const form = useAppForm({
    defaultValues: { identifier: '' },
    validators: { onDynamic: ssoSignInSchema },
    onSubmit: async ({ value }) => {
      const identifier = ssoSignInSchema.parse(value).identifier
      const target = safeRedirectPath(redirect) ?? localizeHref('/console', { locale: getLocale() })
      const { data, error } = await authClient.$fetch<{ url: string }>('/sign-in/sso', {
        method: 'POST',
        body: {
          ...(identifier.includes('@') ? { email: identifier } : { organizationSlug: identifier.toLowerCase() }),
          callbackURL: target,
          newUserCallbackURL: target,
          errorCallbackURL: oauthErrorCallbackPath(authPageHref('/sign-in', redirect)),
        },
      })
      if (error || !data?.url) {
        toast.error(error ? describeSsoStartError(error) : m.sso_error_not_found())
        return
      }
      // Stays "sending" until the identity provider's page replaces this one.
      window.location.assign(data.url)
      await new Promise(() => {})
    },
  })

  if (!open) {
    return (
      <Button type="button" variant="outline" onClick={() => setOpen(true)}>
        <Building2Icon aria-hidden="true" />
        {m.sso_sign_in_button()}
      </Button>
    )
  }
  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="grid gap-3 rounded-lg border p-4"
      aria-label={m.sso_sign_in_button()}
    >
      <form.AppField name="identifier">
        {(field) => (
          <field.TextField label={m.sso_sign_in_label()} hint={m.sso_sign_in_hint()} autoComplete="email" autoFocus />
        )}
      </form.AppField>
      <div className="flex flex-wrap gap-2">
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.sso_sign_in_submit()}>{m.sso_sign_in_submit()}</form.SubmitButton>
        </form.AppForm>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          {m.sso_sign_in_cancel()}
        </Button>
      </div>
    </form>
  )
}
