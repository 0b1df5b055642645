import { useState } from 'react'
import { toast } from 'sonner'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { sendWith, useAppForm } from '#/lib/form'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { forgotPasswordSchema } from '../schemas'

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const [sent, setSent] = useState(false)
  const form = useAppForm({
    defaultValues: { email: '' },
    validators: { onDynamic: forgotPasswordSchema },
    onSubmit: async ({ value }) => {
      const { error } = await authClient.requestPasswordReset({
        email: forgotPasswordSchema.parse(value).email,
        redirectTo: localizeHref('/reset-password'),
      })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      setSent(true)
    },
  })

  if (sent) {
    return (
      <div className="grid gap-4">
        <p role="status">{m.auth_forgot_sent()}</p>
        <a className="text-sm text-primary underline-offset-4 hover:underline" href={localizeHref('/sign-in')}>
          {m.auth_back_to_sign_in()}
        </a>
      </div>
    )
  }
  return (
    <form method="post" onSubmit={sendWith(form)} noValidate className="grid gap-4">
      <form.AppField name="email">
        {(field) => <field.TextField label={m.auth_email_label()} type="email" autoComplete="email" />}
      </form.AppField>
      <form.AppForm>
        <form.SubmitButton pendingLabel={m.auth_forgot_submit()}>{m.auth_forgot_submit()}</form.SubmitButton>
      </form.AppForm>
      <a
        className="text-center text-sm text-primary underline-offset-4 hover:underline"
        href={localizeHref('/sign-in')}
      >
        {m.auth_back_to_sign_in()}
      </a>
    </form>
  )
}
