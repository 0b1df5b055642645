import { Button } from '#/components/ui/button'
import { sendWith, useAppForm } from '#/lib/form'
import { z } from '#/lib/zod'
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
  onSend,
  onCancel,
}: {
  /** Distinct per method, so the browser's autofill and the tests can tell the forms apart. */
  fieldName: string
  title: string
  sendLabel: string
  onSend: (email: string) => Promise<void>
  onCancel: () => void
}) {
  // The address rule under this method's field name, so its message shows beside that field.
  const schema = z.object({ [fieldName]: emailOnlySchema.shape.email })
  const form = useAppForm({
    defaultValues: { [fieldName]: '' },
    validators: { onDynamic: schema },
    onSubmit: ({ value }) => onSend(emailOnlySchema.shape.email.parse(value[fieldName])),
  })
  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="grid gap-3 rounded-lg border p-4"
      aria-label={title}
    >
      <form.AppField name={fieldName}>
        {(field) => <field.TextField label={m.auth_email_label()} type="email" autoComplete="email" />}
      </form.AppField>
      <div className="flex flex-wrap gap-2">
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.email_signin_sending()}>{sendLabel}</form.SubmitButton>
        </form.AppForm>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {m.email_signin_cancel()}
        </Button>
      </div>
    </form>
  )
}
