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
import { signUpSchema } from '../schemas'

export function SignUpForm({ redirect }: { redirect: string | undefined }) {
  const { errors, validate } = useFieldErrors(signUpSchema)
  const [pending, setPending] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const [verifyEmailFirst, setVerifyEmailFirst] = useState<string | null>(null)
  const { authEmailPassword, authUsername } = useSiteSettings()

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const values = validate({
      name: String(form.get('name') ?? ''),
      email: String(form.get('email') ?? ''),
      username: String(form.get('username') ?? ''),
      password: String(form.get('password') ?? ''),
    })
    if (!values) return
    if (!authEmailPassword) {
      setNotice(m.error_code_EMAIL_AND_PASSWORD_IS_NOT_ENABLED())
      return
    }
    setPending(true)
    const { data, error } = await authClient.signUp.email({
      name: values.name,
      email: values.email,
      password: values.password,
      // The emailed verification link comes back to this page, in this language.
      callbackURL: localizeHref('/verify-email'),
      ...(values.username ? { username: values.username } : {}),
    })
    if (error) {
      setPending(false)
      toast.error(describeAuthError(error))
      return
    }
    if (!data?.token) {
      // The site asks for a verified address before anyone signs in (Configuration): the link is on its way.
      setPending(false)
      setVerifyEmailFirst(values.email)
      return
    }
    goAfterSignIn(redirect)
  }

  const signInHref = authPageHref('/sign-in', redirect)
  if (verifyEmailFirst) {
    return (
      <div role="status" className="grid gap-3 text-center" data-testid="sign-up-verify-first">
        <p className="font-medium">{m.auth_sign_up_verify_first_title()}</p>
        <p className="text-sm text-muted-foreground">{m.auth_sign_up_verify_first({ email: verifyEmailFirst })}</p>
        <a className="text-sm text-primary underline-offset-4 hover:underline" href={signInHref}>
          {m.auth_sign_in()}
        </a>
      </div>
    )
  }
  return (
    <form method="post" onSubmit={submit} noValidate className="grid gap-4">
      <FormNotice>{notice}</FormNotice>
      <FormField label={m.auth_name_label()} name="name" autoComplete="name" error={errors.name} />
      <FormField label={m.auth_email_label()} name="email" type="email" autoComplete="email" error={errors.email} />
      {authUsername ? (
        <FormField label={m.auth_username_optional()} name="username" autoComplete="username" error={errors.username} />
      ) : null}
      <FormField
        label={m.auth_password_label()}
        name="password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
      />
      <Button type="submit" disabled={pending}>
        {pending ? m.auth_signing_up() : m.auth_sign_up()}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        {m.auth_have_account()}{' '}
        <a className="text-primary underline-offset-4 hover:underline" href={signInHref}>
          {m.auth_sign_in()}
        </a>
      </p>
    </form>
  )
}
