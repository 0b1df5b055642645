import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormField } from '#/components/form-field'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { forgotPasswordSchema } from '../schemas'

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const { errors, validate } = useFieldErrors(forgotPasswordSchema)
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle')

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = validate({ email: String(new FormData(event.currentTarget).get('email') ?? '') })
    if (!values) return
    setState('sending')
    const { error } = await authClient.requestPasswordReset({
      email: values.email,
      redirectTo: localizeHref('/reset-password'),
    })
    if (error) {
      setState('idle')
      toast.error(describeAuthError(error))
      return
    }
    setState('sent')
  }

  if (state === 'sent') {
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
    <form method="post" onSubmit={submit} noValidate className="grid gap-4">
      <FormField label={m.auth_email_label()} name="email" type="email" autoComplete="email" error={errors.email} />
      <Button type="submit" disabled={state === 'sending'}>
        {m.auth_forgot_submit()}
      </Button>
      <a
        className="text-center text-sm text-primary underline-offset-4 hover:underline"
        href={localizeHref('/sign-in')}
      >
        {m.auth_back_to_sign_in()}
      </a>
    </form>
  )
}
