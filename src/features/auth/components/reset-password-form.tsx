import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormField } from '#/components/form-field'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { resetPasswordSchema } from '../schemas'

export function ResetPasswordForm({ token }: { token: string }) {
  const { errors, validate } = useFieldErrors(resetPasswordSchema)
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = validate({ password: String(new FormData(event.currentTarget).get('password') ?? '') })
    if (!values) return
    setPending(true)
    const { error } = await authClient.resetPassword({ newPassword: values.password, token })
    if (error) {
      setPending(false)
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.auth_reset_done())
    window.location.assign(localizeHref('/sign-in'))
  }

  return (
    <form method="post" onSubmit={submit} noValidate className="grid gap-4">
      <FormField
        label={m.auth_new_password_label()}
        name="password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
      />
      <Button type="submit" disabled={pending}>
        {m.auth_reset_submit()}
      </Button>
    </form>
  )
}
