import { useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { sendWith, useAppForm } from '#/lib/form'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { authPageHref, goAfterSignIn } from '../after-sign-in'
import { signUpSchema } from '../schemas'
// The installed apps' refusals in words (an address whose organization requires single sign-on).
import '../sign-in-apps'
import { staySubmitting } from './stay-submitting'

export function SignUpForm({ redirect, email }: { redirect: string | undefined; email?: string }) {
  const [notice, setNotice] = useState<string | null>(null)
  const [verifyEmailFirst, setVerifyEmailFirst] = useState<string | null>(null)
  const { authEmailPassword, authUsername } = useSiteSettings()

  const form = useAppForm({
    defaultValues: { name: '', email: email ?? '', username: '', password: '' },
    validators: { onDynamic: signUpSchema },
    onSubmit: async ({ value }) => {
      const values = signUpSchema.parse(value)
      if (!authEmailPassword) {
        setNotice(m.error_code_EMAIL_AND_PASSWORD_IS_NOT_ENABLED())
        return
      }
      const { data, error } = await authClient.signUp.email({
        name: values.name,
        email: values.email,
        password: values.password,
        // The emailed verification link comes back to this page, in this language.
        callbackURL: localizeHref('/verify-email'),
        ...(values.username ? { username: values.username } : {}),
      })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      if (!data?.token) {
        // The site asks for a verified address before anyone signs in (Configuration): the link is on its way.
        setVerifyEmailFirst(values.email)
        return
      }
      goAfterSignIn(redirect)
      await staySubmitting()
    },
  })

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
    <form method="post" onSubmit={sendWith(form)} noValidate className="grid gap-4">
      <FormNotice>{notice}</FormNotice>
      <form.AppField name="name">
        {(field) => <field.TextField label={m.auth_name_label()} autoComplete="name" />}
      </form.AppField>
      <form.AppField name="email">
        {(field) => <field.TextField label={m.auth_email_label()} type="email" autoComplete="email" />}
      </form.AppField>
      {authUsername ? (
        <form.AppField name="username">
          {(field) => <field.TextField label={m.auth_username_optional()} autoComplete="username" />}
        </form.AppField>
      ) : null}
      <form.AppField name="password">
        {(field) => <field.TextField label={m.auth_password_label()} type="password" autoComplete="new-password" />}
      </form.AppField>
      <form.AppForm>
        <form.SubmitButton pendingLabel={m.auth_signing_up()}>{m.auth_sign_up()}</form.SubmitButton>
      </form.AppForm>
      <p className="text-center text-sm text-muted-foreground">
        {m.auth_have_account()}{' '}
        <a className="text-primary underline underline-offset-4" href={signInHref}>
          {m.auth_sign_in()}
        </a>
      </p>
    </form>
  )
}
