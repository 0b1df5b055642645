import { toast } from 'sonner'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { sendWith, useAppForm } from '#/lib/form'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { resetPasswordSchema } from '../schemas'
import { staySubmitting } from './stay-submitting'

export function ResetPasswordForm({ token }: { token: string }) {
  const form = useAppForm({
    defaultValues: { password: '' },
    validators: { onDynamic: resetPasswordSchema },
    onSubmit: async ({ value }) => {
      const { error } = await authClient.resetPassword({ newPassword: value.password, token })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      toast.success(m.auth_reset_done())
      window.location.assign(localizeHref('/sign-in'))
      await staySubmitting()
    },
  })

  return (
    <form method="post" onSubmit={sendWith(form)} noValidate className="grid gap-4">
      <form.AppField name="password">
        {(field) => <field.TextField label={m.auth_new_password_label()} type="password" autoComplete="new-password" />}
      </form.AppField>
      <form.AppForm>
        <form.SubmitButton pendingLabel={m.auth_reset_submit()}>{m.auth_reset_submit()}</form.SubmitButton>
      </form.AppForm>
    </form>
  )
}
