import { useQuery } from '@tanstack/react-query'
import { KeyRoundIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { browserSupportsPasskeys, describePasskeyRegistrationError } from '#/features/auth'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { authQueryKeys, useAuthRefresh } from '#/lib/auth-refresh'
import { sendWith, useAppForm } from '#/lib/form'
import { currentIntlLocale } from '#/lib/i18n'
import { passkeyNameMaxLength } from '#/lib/passkey-name'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'

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
  const form = useAppForm({
    defaultValues: { name: '', attachment: 'any' as (typeof attachments)[number] },
    validators: { onDynamic: addPasskeySchema },
    onSubmit: async ({ value, formApi }) => {
      if (!browserSupportsPasskeys()) {
        toast.error(m.passkey_not_supported())
        return
      }
      const { name, attachment } = addPasskeySchema.parse(value)
      const { error } = await authClient.passkey.addPasskey({
        ...(name ? { name } : {}),
        ...(attachment === 'any' ? {} : { authenticatorAttachment: attachment }),
      })
      if (error) {
        toast.error(describePasskeyRegistrationError(error))
        return
      }
      toast.success(m.passkey_added())
      formApi.reset()
      await refresh.passkeys()
    },
  })

  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="grid gap-4 sm:max-w-md"
      aria-label={m.passkey_add_form()}
    >
      <form.AppField name="name">
        {(field) => (
          <field.TextField
            label={m.passkey_name_label()}
            placeholder={m.passkey_name_placeholder()}
            autoComplete="off"
          />
        )}
      </form.AppField>
      <form.AppField name="attachment">
        {(field) => (
          <field.SelectField label={m.passkey_attachment_label()}>
            <option value="any">{m.passkey_attachment_any()}</option>
            <option value="platform">{m.passkey_attachment_platform()}</option>
            <option value="cross-platform">{m.passkey_attachment_cross_platform()}</option>
          </field.SelectField>
        )}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button type="submit" className="w-fit" disabled={submitting}>
            <KeyRoundIcon aria-hidden />
            {submitting ? m.passkey_adding() : m.passkey_add()}
          </Button>
        )}
      </form.Subscribe>
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
  const form = useAppForm({
    defaultValues: { name: passkey.name ?? '' },
    validators: { onDynamic: renamePasskeySchema },
    onSubmit: async ({ value }) => {
      const { error } = await authClient.passkey.updatePasskey({
        id: passkey.id,
        name: renamePasskeySchema.parse(value).name,
      })
      if (error) {
        toast.error(describePasskeyRegistrationError(error))
        return
      }
      toast.success(m.passkey_renamed())
      onDone()
      await refresh.passkeys()
    },
  })

  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="grid gap-3 sm:max-w-md"
      aria-label={m.passkey_rename_form({ name })}
    >
      <form.AppField name="name">
        {(field) => <field.TextField label={m.passkey_new_name_label()} autoComplete="off" autoFocus />}
      </form.AppField>
      <div className="flex flex-wrap gap-2">
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(submitting) => (
            <Button type="submit" size="sm" disabled={submitting}>
              {m.passkey_save_name()}
            </Button>
          )}
        </form.Subscribe>
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
