import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormField } from '#/components/form-field'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { deleteAccountSchema } from '../schemas'

/** Deletes the account after the password is given again (re-authentication) and the warning is acknowledged. */
export function DeleteAccountSection() {
  const { errors, validate } = useFieldErrors(deleteAccountSchema)
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const values = validate({ password: String(form.get('password') ?? ''), confirmed: form.get('confirmed') === 'on' })
    if (!values) return
    setPending(true)
    const { error } = await authClient.deleteUser({ password: values.password })
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
      <FormField
        label={m.account_delete_password()}
        name="password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
      />
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
