import { useState } from 'react'
import { FormNotice } from '#/components/form-notice'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { sendWith, useAppForm } from '#/lib/form'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { authPageHref, goAfterSignIn } from '../after-sign-in'
import { signInSchema } from '../schemas'
// The installed apps' refusals in words (an address whose organization requires single sign-on).
import '../sign-in-apps'
import { needsSecondFactor } from '../two-factor'
import { staySubmitting } from './stay-submitting'

export function SignInForm({ redirect }: { redirect: string | undefined }) {
  const [notice, setNotice] = useState<string | null>(null)
  const { authEmailPassword, authUsername, signUpOpen } = useSiteSettings()
  const usernameAllowed = authEmailPassword && authUsername

  const form = useAppForm({
    defaultValues: { identifier: '', password: '', rememberMe: true },
    validators: { onDynamic: signInSchema },
    onSubmit: async ({ value }) => {
      const { identifier, password, rememberMe } = signInSchema.parse(value)
      // A method switched off in site settings is refused here, before anything is sent (and by the server too).
      if (!authEmailPassword) {
        setNotice(m.error_code_EMAIL_AND_PASSWORD_IS_NOT_ENABLED())
        return
      }
      if (!identifier.includes('@') && !usernameAllowed) {
        setNotice(m.error_code_USERNAME_SIGN_IN_IS_NOT_ENABLED())
        return
      }
      setNotice(null)
      const { data, error } = identifier.includes('@')
        ? await authClient.signIn.email({ email: identifier, password, rememberMe })
        : await authClient.signIn.username({ username: identifier, password, rememberMe })
      if (error) {
        // Said above the form, where it stays: a suspension's reason and end, or a lock's wait, are read, not glanced.
        setNotice(describeAuthError(error))
        return
      }
      // Two-factor on: the password was right, but the session comes only after the second factor.
      if (needsSecondFactor(data)) window.location.assign(authPageHref('/two-factor', redirect))
      else goAfterSignIn(redirect)
      await staySubmitting()
    },
  })

  const signUpHref = authPageHref('/sign-up', redirect)
  return (
    <form method="post" onSubmit={sendWith(form)} noValidate className="grid gap-4">
      <FormNotice>{notice}</FormNotice>
      <form.AppField name="identifier">
        {(field) => (
          <field.TextField
            label={usernameAllowed ? m.auth_identifier_label() : m.auth_email_label()}
            type="text"
            autoComplete="username webauthn"
          />
        )}
      </form.AppField>
      <form.AppField name="password">
        {(field) => <field.TextField label={m.auth_password_label()} type="password" autoComplete="current-password" />}
      </form.AppField>
      <div className="flex items-center justify-between gap-2 text-sm">
        <form.AppField name="rememberMe">
          {(field) => <field.CheckboxField label={m.auth_remember_me()} />}
        </form.AppField>
        <a className="text-primary underline-offset-4 hover:underline" href={localizeHref('/forgot-password')}>
          {m.auth_forgot_password()}
        </a>
      </div>
      <form.AppForm>
        <form.SubmitButton pendingLabel={m.auth_signing_in()}>{m.auth_sign_in()}</form.SubmitButton>
      </form.AppForm>
      {signUpOpen ? (
        <p className="text-center text-sm text-muted-foreground">
          {m.auth_no_account()}{' '}
          <a className="text-primary underline underline-offset-4" href={signUpHref}>
            {m.auth_sign_up()}
          </a>
        </p>
      ) : null}
    </form>
  )
}
