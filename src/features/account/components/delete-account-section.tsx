import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authPageHref } from '#/features/auth'
import { deleteAfterSignInMinutes } from '#/lib/account-rules'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { sendWith, useAppForm } from '#/lib/form'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { useHasPassword } from '../linked-accounts-query'
import { deleteAccountSchema } from '../schemas'

/**
 * Deletes the account after re-authentication and an acknowledged warning: the password again, or, for an account
 * without one, a sign-in within the last few minutes (the server enforces both: src/server/auth/account-deletion.ts).
 */
export function DeleteAccountSection() {
  const needsPassword = useHasPassword() !== false
  // Without a password a recent sign-in stands in for it: the field is not shown and its empty value passes.
  const schema = needsPassword ? deleteAccountSchema : deleteAccountSchema.extend({ password: z.string() })
  // The page is left on success: the button stays disabled until it is gone.
  const [leaving, setLeaving] = useState(false)
  const form = useAppForm({
    defaultValues: { password: '', confirmed: false },
    validators: { onDynamic: schema },
    onSubmit: async ({ value }) => {
      const { error } = await authClient.deleteUser(needsPassword ? { password: value.password } : {})
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      setLeaving(true)
      window.location.assign(localizeHref('/'))
    },
  })

  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="mt-4 grid gap-4 sm:max-w-md"
      aria-label={m.account_delete_title()}
    >
      <p className="text-sm text-muted-foreground">{m.account_delete_warning()}</p>
      {needsPassword ? (
        <form.AppField name="password">
          {(field) => (
            <field.TextField label={m.account_delete_password()} type="password" autoComplete="current-password" />
          )}
        </form.AppField>
      ) : (
        <p className="text-sm" data-testid="delete-needs-recent-sign-in">
          {m.account_delete_recent_sign_in({ minutes: String(deleteAfterSignInMinutes) })}{' '}
          <a
            className="text-primary underline-offset-4 hover:underline"
            href={authPageHref('/sign-in', localizeHref('/console/account'))}
          >
            {m.account_delete_sign_in_again()}
          </a>
        </p>
      )}
      <form.AppField name="confirmed">
        {(field) => <field.CheckboxField label={m.account_delete_confirm()} />}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button
            type="submit"
            variant="outline"
            className="w-fit border-destructive text-destructive"
            disabled={submitting || leaving}
          >
            {m.account_delete_submit()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}
