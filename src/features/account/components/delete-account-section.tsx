import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import type { ZodType } from 'zod'
import { FormField } from '#/components/form-field'
import { Button } from '#/components/ui/button'
import { authPageHref } from '#/features/auth/after-sign-in'
import { deleteAfterSignInMinutes } from '#/lib/account-rules'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useFieldErrors } from '#/lib/use-field-errors'
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
  const schema: ZodType<{ password?: string; confirmed: true }> = needsPassword
    ? deleteAccountSchema
    : deleteAccountSchema.partial({ password: true })
  const { errors, validate } = useFieldErrors(schema)
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const values = validate({
      password: needsPassword ? String(form.get('password') ?? '') : undefined,
      confirmed: form.get('confirmed') === 'on',
    })
    if (!values) return
    setPending(true)
    const { error } = await authClient.deleteUser(values.password ? { password: values.password } : {})
    if (error) {
      setPending(false)
      toast.error(describeAuthError(error))
      return
    }
    window.location.assign(localizeHref('/'))
  }

  return (
    <form
      method="post"
      onSubmit={submit}
      noValidate
      className="mt-4 grid gap-4 sm:max-w-md"
      aria-label={m.account_delete_title()}
    >
      <p className="text-sm text-muted-foreground">{m.account_delete_warning()}</p>
      {needsPassword ? (
        <FormField
          label={m.account_delete_password()}
          name="password"
          type="password"
          autoComplete="current-password"
          error={errors.password}
        />
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
      <div className="grid gap-1">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="confirmed" className="size-4 accent-primary" />
          {m.account_delete_confirm()}
        </label>
        {errors.confirmed ? (
          <p className="text-sm text-destructive" data-testid="error-confirmed">
            {errors.confirmed}
          </p>
        ) : null}
      </div>
      <Button type="submit" variant="outline" className="w-fit border-destructive text-destructive" disabled={pending}>
        {m.account_delete_submit()}
      </Button>
    </form>
  )
}
