import { useMutation, useQuery } from '@tanstack/react-query'
import { CopyIcon, KeyRoundIcon, TriangleAlertIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import {
  type ApiKeyExpiryChoice,
  apiKeyExpiryChoices,
  apiKeyLimits,
  createApiKeySchema,
  expiresInSeconds,
} from '#/lib/api-key-rules'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { accountListStaleTime, authQueryKeys, useAuthRefresh } from '#/lib/auth-refresh'
import { describeError } from '#/lib/errors'
import { sendWith, useAppForm } from '#/lib/form'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'

interface ListedApiKey {
  id: string
  name: string | null
  start: string | null
  createdAt: Date
  expiresAt: Date | null
}

async function loadApiKeys(): Promise<ListedApiKey[]> {
  const { data, error } = await authClient.apiKey.list()
  if (error) throw new Error(describeAuthError(error))
  return data.apiKeys
    .map(({ id, name, start, createdAt, expiresAt }) => ({
      id,
      name,
      start,
      createdAt: new Date(createdAt),
      expiresAt: expiresAt ? new Date(expiresAt) : null,
    }))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
}

function expiryLabel(choice: ApiKeyExpiryChoice): string {
  return choice === 'never' ? m.apikeys_expiry_never() : m.apikeys_expiry_days({ days: choice })
}

/** Create form; the whole key comes back once, and only this component ever holds it. */
function CreateApiKeyForm({ onCreated }: { onCreated: (key: string) => void }) {
  const form = useAppForm({
    defaultValues: { name: '', expiry: '30' as ApiKeyExpiryChoice },
    validators: { onDynamic: createApiKeySchema },
    onSubmit: async ({ value, formApi }) => {
      const { name, expiry } = createApiKeySchema.parse(value)
      const { data, error } = await authClient.apiKey.create({ name, expiresIn: expiresInSeconds(expiry) })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      formApi.reset()
      onCreated(data.key)
    },
  })

  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-start"
    >
      <form.AppField name="name">
        {(field) => (
          <field.TextField
            label={m.apikeys_name_label()}
            placeholder={m.apikeys_name_placeholder()}
            maxLength={apiKeyLimits.nameMax}
            autoComplete="off"
          />
        )}
      </form.AppField>
      <form.AppField name="expiry">
        {(field) => (
          <field.SelectField label={m.apikeys_expiry_label()}>
            {apiKeyExpiryChoices.map((choice) => (
              <option key={choice} value={choice}>
                {expiryLabel(choice)}
              </option>
            ))}
          </field.SelectField>
        )}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button type="submit" disabled={submitting} className="sm:mt-6">
            {submitting ? m.apikeys_creating() : m.apikeys_create()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}

/** The full key, shown once right after creation with a copy button; it is gone from the page after "Done". */
function NewApiKeyNotice({ apiKey, onDone }: { apiKey: string; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey)
      toast.success(m.apikeys_copied())
    } catch {
      toast.error(m.apikeys_copy_failed())
    }
  }
  return (
    <div
      role="status"
      className="grid gap-3 rounded-lg border border-primary/40 bg-primary/5 p-4"
      data-testid="new-api-key"
    >
      <p className="font-medium">{m.apikeys_created_title()}</p>
      <p className="flex items-start gap-2 text-sm">
        <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
        {m.apikeys_created_warning()}
      </p>
      <code
        className="block rounded-md border bg-background p-2 font-mono text-sm break-all select-all"
        data-testid="new-api-key-value"
      >
        {apiKey}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={copy}>
          <CopyIcon aria-hidden />
          {m.apikeys_copy()}
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          {m.apikeys_done()}
        </Button>
      </div>
    </div>
  )
}

function DeleteApiKeyButton({ apiKey, onDeleted }: { apiKey: ListedApiKey; onDeleted: () => Promise<void> }) {
  const name = apiKey.name ?? m.apikeys_unnamed()
  const remove = async () => {
    const { error } = await authClient.apiKey.delete({ keyId: apiKey.id })
    if (error) toast.error(describeAuthError(error))
    else toast.success(m.apikeys_deleted())
    await onDeleted()
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={m.apikeys_delete_named({ name })}>
          {m.apikeys_delete()}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{m.apikeys_delete_named({ name })}</AlertDialogTitle>
        <AlertDialogDescription>{m.apikeys_delete_confirm({ name })}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.apikeys_cancel()}</AlertDialogCancel>
          <AlertDialogAction onClick={remove}>{m.apikeys_delete_confirm_yes()}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** Create, list and delete the user's API keys (the key authenticates tRPC calls in `x-api-key`). */
export function ApiKeysSection() {
  const trpc = useTRPC()
  const refresh = useAuthRefresh()
  const [newKey, setNewKey] = useState<string | null>(null)
  const { data: keys, isPending } = useQuery({
    queryKey: authQueryKeys.apiKeys,
    queryFn: loadApiKeys,
    staleTime: accountListStaleTime,
  })
  const deleteExpired = useMutation(
    trpc.apiKeys.deleteExpired.mutationOptions({
      onSuccess: () => toast.success(m.apikeys_expired_deleted()),
      onError: (error) => toast.error(describeError(error)),
      onSettled: () => refresh.apiKeys(),
    }),
  )
  const dateFormat = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  const now = Date.now()
  const hasExpired = keys?.some((key) => key.expiresAt && key.expiresAt.getTime() <= now) ?? false

  return (
    <div className="mt-4 grid gap-4">
      <CreateApiKeyForm
        onCreated={(key) => {
          setNewKey(key)
          void refresh.apiKeys()
        }}
      />
      {newKey ? <NewApiKeyNotice apiKey={newKey} onDone={() => setNewKey(null)} /> : null}
      {isPending || !keys ? (
        <p className="text-sm text-muted-foreground">{m.apikeys_loading()}</p>
      ) : keys.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.apikeys_empty()}</p>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label={m.apikeys_list_label()} data-testid="api-keys-list">
          {keys.map((key) => {
            const expired = key.expiresAt !== null && key.expiresAt.getTime() <= now
            return (
              <li key={key.id} className="flex flex-wrap items-center gap-3 p-3 text-sm" data-testid="api-key-row">
                <KeyRoundIcon className="size-5 text-muted-foreground" aria-hidden />
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">
                    {key.name ?? m.apikeys_unnamed()}
                    {expired ? (
                      <span className="ml-2 rounded-full border border-destructive/50 px-2 py-0.5 text-xs font-normal text-destructive">
                        {m.apikeys_expired()}
                      </span>
                    ) : null}
                  </p>
                  <p className="text-muted-foreground">
                    <code className="font-mono" data-testid="api-key-start">
                      {key.start ?? ''}…
                    </code>
                    {' · '}
                    {m.apikeys_created_at({ date: dateFormat.format(key.createdAt) })}
                    {' · '}
                    {key.expiresAt
                      ? m.apikeys_expires_at({ date: dateFormat.format(key.expiresAt) })
                      : m.apikeys_never_expires()}
                  </p>
                </div>
                <DeleteApiKeyButton apiKey={key} onDeleted={() => refresh.apiKeys()} />
              </li>
            )
          })}
        </ul>
      )}
      {hasExpired ? (
        <Button
          variant="ghost"
          className="w-fit"
          disabled={deleteExpired.isPending}
          onClick={() => deleteExpired.mutate()}
        >
          {m.apikeys_delete_expired()}
        </Button>
      ) : null}
    </div>
  )
}
