import type { FormEvent } from 'react'
import { FormField } from '#/components/form-field'
import { Button } from '#/components/ui/button'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { emailOnlySchema } from '../email-sign-in'

/**
 * The first step of the emailed sign-in methods: an address, checked with the sign-in form's messages before
 * anything is sent, then handed to `onSend`.
 */
export function EmailAddressForm({
  fieldName,
  title,
  sendLabel,
  pending,
  onSend,
  onCancel,
}: {
  /** Distinct per method, so the browser's autofill and the tests can tell the forms apart. */
  fieldName: string
  title: string
  sendLabel: string
  pending: boolean
  onSend: (email: string) => Promise<void>
  onCancel: () => void
}) {
  const { errors, validate } = useFieldErrors(emailOnlySchema)
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = validate({ email: String(new FormData(event.currentTarget).get(fieldName) ?? '') })
    if (values) await onSend(values.email)
  }
  return (
    <form method="post" onSubmit={submit} noValidate className="grid gap-3 rounded-lg border p-4" aria-label={title}>
      <FormField label={m.auth_email_label()} name={fieldName} type="email" autoComplete="email" error={errors.email} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? m.email_signin_sending() : sendLabel}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {m.email_signin_cancel()}
        </Button>
      </div>
    </form>
  )
}
