import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormField } from '#/components/form-field'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useFieldErrors } from '#/lib/use-field-errors'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { authPageHref, goAfterSignIn } from '../after-sign-in'
import { signInSchema } from '../schemas'
import { needsSecondFactor } from '../two-factor'

export function SignInForm({ redirect }: { redirect: string | undefined }) {
  const { errors, validate } = useFieldErrors(signInSchema)
  const [pending, setPending] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const { authEmailPassword, authUsername, signUpOpen } = useSiteSettings()
  const usernameAllowed = authEmailPassword && authUsername

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const values = validate({
      identifier: String(form.get('identifier') ?? ''),
      password: String(form.get('password') ?? ''),
      rememberMe: form.get('rememberMe') === 'on',
    })
    if (!values) return
    // A method switched off in site settings is refused here, before anything is sent (and by the server too).
    if (!authEmailPassword) {
      setNotice(m.error_code_EMAIL_AND_PASSWORD_IS_NOT_ENABLED())
      return
    }
    if (!values.identifier.includes('@') && !usernameAllowed) {
      setNotice(m.error_code_USERNAME_SIGN_IN_IS_NOT_ENABLED())
      return
    }
    setNotice(null)
    setPending(true)
    const { identifier, password, rememberMe } = values
    const { data, error } = identifier.includes('@')
      ? await authClient.signIn.email({ email: identifier, password, rememberMe })
      : await authClient.signIn.username({ username: identifier, password, rememberMe })
    if (error) {
      setPending(false)
      toast.error(describeAuthError(error))
      return
    }
    // Two-factor on: the password was right, but the session comes only after the second factor.
    if (needsSecondFactor(data)) {
      window.location.assign(authPageHref('/two-factor', redirect))
      return
    }
    goAfterSignIn(redirect)
  }

  const signUpHref = authPageHref('/sign-up', redirect)
  return (
    <form method="post" onSubmit={submit} noValidate className="grid gap-4">
      <FormNotice>{notice}</FormNotice>
      <FormField
        label={usernameAllowed ? m.auth_identifier_label() : m.auth_email_label()}
        name="identifier"
        type="text"
        autoComplete="username webauthn"
        error={errors.identifier}
      />
      <FormField
        label={m.auth_password_label()}
        name="password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
      />
      <div className="flex items-center justify-between gap-2 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" name="rememberMe" defaultChecked className="size-4 accent-primary" />
          {m.auth_remember_me()}
        </label>
        <a className="text-primary underline-offset-4 hover:underline" href={localizeHref('/forgot-password')}>
          {m.auth_forgot_password()}
        </a>
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? m.auth_signing_in() : m.auth_sign_in()}
      </Button>
      {signUpOpen ? (
        <p className="text-center text-sm text-muted-foreground">
          {m.auth_no_account()}{' '}
          <a className="text-primary underline-offset-4 hover:underline" href={signUpHref}>
            {m.auth_sign_up()}
          </a>
        </p>
      ) : null}
    </form>
  )
}
