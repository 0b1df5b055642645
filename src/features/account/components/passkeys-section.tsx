import { useQuery } from '@tanstack/react-query'
import { KeyRoundIcon } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { toast } from 'sonner'
import { z } from 'zod'
import { FormField } from '#/components/form-field'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { authQueryKeys, useAuthRefresh } from '#/lib/auth-refresh'
import { currentIntlLocale } from '#/lib/i18n'
import { passkeyNameMaxLength } from '#/lib/passkey-name'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { browserSupportsPasskeys, describePasskeyRegistrationError } from '../passkey-errors'

const attachments = ['any', 'platform', 'cross-platform'] as const

// Messages as functions: they are read at validation time, in the page's language (keys of ours that
// src/lib/errors.ts does not list would show untranslated).
const nameTooLong = () => m.passkey_name_too_long({ max: String(passkeyNameMaxLength) })
const optionalNameField = z.string().trim().max(passkeyNameMaxLength, { error: nameTooLong })
const addPasskeySchema = z.object({ name: optionalNameField, attachment: z.enum(attachments) })
const renamePasskeySchema = z.object({
  name: optionalNameField.min(1, { error: () => m.passkey_name_required() }),
})

async function loadPasskeys() {
  const { data, error } = await authClient.passkey.listUserPasskeys()
  if (error) throw new Error(describeAuthError(error))
  return data ?? []
}

type Passkey = Awaited<ReturnType<typeof loadPasskeys>>[number]

/** The user's passkeys: add one, rename or delete each. */
export function PasskeysSection() {
  const { data, isPending, error } = useQuery({ queryKey: authQueryKeys.passkeys, queryFn: loadPasskeys })
  return (
    <div className="mt-4 grid gap-4">
      {isPending ? (
        <p className="text-sm text-muted-foreground">{m.passkey_loading()}</p>
      ) : error ? (
        <p className="text-sm text-destructive">{error.message}</p>
      ) : data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.passkey_none()}</p>
      ) : (
        <ul className="divide-y rounded-lg border" data-testid="passkeys-list">
          {data.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      <AddPasskeyForm />
    </div>
  )
}

function AddPasskeyForm() {
  const refresh = useAuthRefresh()
  const { errors, validate } = useFieldErrors(addPasskeySchema)
  const [pending, setPending] = useState(false)
  const attachmentId = useId()

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const values = validate({ name: String(form.get('name') ?? ''), attachment: String(form.get('attachment') ?? '') })
    if (!values) return
    if (!browserSupportsPasskeys()) {
      toast.error(m.passkey_not_supported())
      return
    }
    setPending(true)
    const { error } = await authClient.passkey.addPasskey({
      ...(values.name ? { name: values.name } : {}),
      ...(values.attachment === 'any' ? {} : { authenticatorAttachment: values.attachment }),
    })
    setPending(false)
    if (error) {
      toast.error(describePasskeyRegistrationError(error))
      return
    }
    toast.success(m.passkey_added())
    formElement.reset()
    await refresh.passkeys()
  }

  return (
    <form
      method="post"
      onSubmit={submit}
      noValidate
      className="grid gap-4 sm:max-w-md"
      aria-label={m.passkey_add_form()}
    >
      <FormField
        label={m.passkey_name_label()}
        name="name"
        placeholder={m.passkey_name_placeholder()}
        autoComplete="off"
        error={errors.name}
      />
      <div className="grid gap-1.5">
        <label htmlFor={attachmentId} className="text-sm font-medium">
          {m.passkey_attachment_label()}
        </label>
        <select
          id={attachmentId}
          name="attachment"
          defaultValue="any"
          className="h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <option value="any">{m.passkey_attachment_any()}</option>
          <option value="platform">{m.passkey_attachment_platform()}</option>
          <option value="cross-platform">{m.passkey_attachment_cross_platform()}</option>
        </select>
      </div>
      <Button type="submit" className="w-fit" disabled={pending}>
        <KeyRoundIcon aria-hidden />
        {pending ? m.passkey_adding() : m.passkey_add()}
      </Button>
    </form>
  )
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view')
  const name = passkey.name || m.passkey_unnamed()
  const created = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' }).format(
    new Date(passkey.createdAt),
  )
  return (
    <li className="grid gap-3 p-3 text-sm" data-testid="passkey">
      <div className="flex flex-wrap items-center gap-3">
        <KeyRoundIcon className="size-5 text-muted-foreground" aria-hidden />
        <div className="min-w-0 flex-1">
          <p className="font-medium break-words" data-testid="passkey-name">
            {name}
          </p>
          <p className="text-muted-foreground">
            {m.passkey_created_on({ date: created })} ·{' '}
            {passkey.deviceType === 'multiDevice' ? m.passkey_device_multi() : m.passkey_device_single()} ·{' '}
            {passkey.backedUp ? m.passkey_backed_up() : m.passkey_not_backed_up()}
          </p>
        </div>
        {mode === 'view' ? (
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              aria-label={m.passkey_rename_named({ name })}
              onClick={() => setMode('rename')}
            >
              {m.passkey_rename()}
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="text-destructive"
              aria-label={m.passkey_delete_named({ name })}
              onClick={() => setMode('delete')}
            >
              {m.passkey_delete()}
            </Button>
          </div>
        ) : null}
      </div>
      {mode === 'rename' ? <RenamePasskeyForm passkey={passkey} name={name} onDone={() => setMode('view')} /> : null}
      {mode === 'delete' ? (
        <ConfirmDeletePasskey passkey={passkey} name={name} onCancel={() => setMode('view')} />
      ) : null}
    </li>
  )
}

function RenamePasskeyForm({ passkey, name, onDone }: { passkey: Passkey; name: string; onDone: () => void }) {
  const refresh = useAuthRefresh()
  const { errors, validate } = useFieldErrors(renamePasskeySchema)
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = validate({ name: String(new FormData(event.currentTarget).get('name') ?? '') })
    if (!values) return
    setPending(true)
    const { error } = await authClient.passkey.updatePasskey({ id: passkey.id, name: values.name })
    setPending(false)
    if (error) {
      toast.error(describePasskeyRegistrationError(error))
      return
    }
    toast.success(m.passkey_renamed())
    onDone()
    await refresh.passkeys()
  }

  return (
    <form
      method="post"
      onSubmit={submit}
      noValidate
      className="grid gap-3 sm:max-w-md"
      aria-label={m.passkey_rename_form({ name })}
    >
      <FormField
        label={m.passkey_new_name_label()}
        name="name"
        defaultValue={passkey.name ?? ''}
        autoComplete="off"
        autoFocus
        error={errors.name}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {m.passkey_save_name()}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          {m.passkey_cancel()}
        </Button>
      </div>
    </form>
  )
}

function ConfirmDeletePasskey({ passkey, name, onCancel }: { passkey: Passkey; name: string; onCancel: () => void }) {
  const refresh = useAuthRefresh()
  const [pending, setPending] = useState(false)

  const remove = async () => {
    setPending(true)
    const { error } = await authClient.passkey.deletePasskey({ id: passkey.id })
    if (error) {
      setPending(false)
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.passkey_deleted())
    await refresh.passkeys()
  }

  return (
    <div role="alert" className="grid gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-3">
      <p>{m.passkey_delete_question({ name })}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          className="border-destructive text-destructive"
          disabled={pending}
          onClick={remove}
        >
          {m.passkey_delete_confirm()}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          {m.passkey_cancel()}
        </Button>
      </div>
    </div>
  )
}
