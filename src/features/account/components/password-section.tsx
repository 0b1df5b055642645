import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { authQueryKeys } from '#/lib/auth-refresh'
import { sendWith, useAppForm } from '#/lib/form'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { useHasPassword } from '../linked-accounts-query'
import { changePasswordSchema } from '../schemas'

/** Changes the password; an account without one is offered an emailed link that sets it. */
export function PasswordSection({ email }: { email: string }) {
  const hasPassword = useHasPassword()
  return hasPassword === false ? <SetPasswordByEmail email={email} /> : <ChangePasswordForm />
}

/**
 * Sets a first password through the reset link (Better Auth's reset adds the password sign-in when there is none), so
 * only someone who can read the account's mailbox can add one.
 */
function SetPasswordByEmail({ email }: { email: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle')

  const send = async () => {
    setState('sending')
    const { error } = await authClient.requestPasswordReset({ email, redirectTo: localizeHref('/reset-password') })
    if (error) {
      setState('idle')
      toast.error(describeAuthError(error))
      return
    }
    setState('sent')
  }

  return (
    <div className="mt-4 grid gap-3 sm:max-w-md" data-testid="password-none">
      <p className="text-sm text-muted-foreground">{m.account_password_none()}</p>
      {state === 'sent' ? (
        <p role="status" className="text-sm">
          {m.account_password_link_sent({ email })}
        </p>
      ) : (
        <Button type="button" variant="outline" className="w-fit" disabled={state === 'sending'} onClick={send}>
          {m.account_password_send_link()}
        </Button>
      )}
    </div>
  )
}

function ChangePasswordForm() {
  const queryClient = useQueryClient()
  const form = useAppForm({
    defaultValues: { currentPassword: '', newPassword: '', revokeOtherSessions: true },
    validators: { onDynamic: changePasswordSchema },
    onSubmit: async ({ value, formApi }) => {
      const { error } = await authClient.changePassword(changePasswordSchema.parse(value))
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      formApi.reset()
      toast.success(m.account_password_changed())
      await queryClient.invalidateQueries({ queryKey: authQueryKeys.sessions })
    },
  })

  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="mt-6 grid gap-4 sm:max-w-md"
      aria-label={m.account_password_title()}
    >
      <form.AppField name="currentPassword">
        {(field) => (
          <field.TextField label={m.account_current_password()} type="password" autoComplete="current-password" />
        )}
      </form.AppField>
      <form.AppField name="newPassword">
        {(field) => <field.TextField label={m.account_new_password()} type="password" autoComplete="new-password" />}
      </form.AppField>
      <form.AppField name="revokeOtherSessions">
        {(field) => <field.CheckboxField label={m.account_revoke_others_option()} />}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button type="submit" className="w-fit" disabled={submitting}>
            {m.account_change_password()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}
