import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ListIcon, PlusIcon, WebhookIcon } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { toast } from 'sonner'
import { EmptyState } from '#/components/empty-state'
import { LoadError } from '#/components/list-screen'
import { PageHeader } from '#/components/page-header'
import { RowActionsMenu } from '#/components/row-actions-menu'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { DropdownMenuItem } from '#/components/ui/dropdown-menu'
import { useCan } from '#/lib/console-session'
import { toastError } from '#/lib/error-toast'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { getLocale } from '#/paraglide/runtime'
import { type EditableEndpoint, EndpointDialog } from './endpoint-dialog'
import { SecretNotice } from './secret-notice'
import { eventLabel } from './webhook-labels'

interface ListedEndpoint extends EditableEndpoint {
  enabled: boolean
  disabledReason: string | null
  failingSince: Date | null
  lastDay: { pending: number; delivered: number; failed: number; skipped: number }
}

const moment = (date: Date | string) =>
  new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(date))

function EndpointStatus({ endpoint }: { endpoint: ListedEndpoint }) {
  if (endpoint.enabled) {
    return (
      <span className="rounded-full bg-emerald-500/15 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:text-emerald-300">
        {m.webhooks_enabled()}
      </span>
    )
  }
  return (
    <span className="rounded-full bg-destructive/10 px-2 py-0.5 text-xs font-medium text-destructive">
      {endpoint.disabledReason === 'failing' ? m.webhooks_disabled_failing() : m.webhooks_disabled_manual()}
    </span>
  )
}

/** One endpoint: where it points, what it receives, how its last day went, and the way into its delivery log. */
function EndpointCard({ endpoint, actions }: { endpoint: ListedEndpoint; actions: ReactNode }) {
  return (
    <li className="grid gap-2 p-4" data-testid="webhook-endpoint">
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="font-mono text-sm break-all">{endpoint.url}</p>
          {endpoint.description ? <p className="mt-0.5 text-sm text-muted-foreground">{endpoint.description}</p> : null}
        </div>
        <EndpointStatus endpoint={endpoint} />
        {actions}
      </div>
      <ul className="flex flex-wrap gap-1.5" aria-label={m.webhooks_events()}>
        {endpoint.events.map((type) => (
          <li
            key={type}
            className="rounded-md border bg-muted/40 px-1.5 py-0.5 font-mono text-xs"
            title={eventLabel(type)}
          >
            {type}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <span>
          {m.webhooks_last_day({
            delivered: String(endpoint.lastDay.delivered),
            failed: String(endpoint.lastDay.failed),
            pending: String(endpoint.lastDay.pending),
          })}
          {endpoint.failingSince ? (
            <span className="ms-2 text-destructive">
              {m.webhooks_failing_since({ time: moment(endpoint.failingSince) })}
            </span>
          ) : null}
        </span>
        <Button variant="outline" size="sm" asChild>
          <Link to="/console/organization/webhooks" search={{ endpoint: endpoint.id }}>
            <ListIcon aria-hidden />
            {m.webhooks_deliveries()}
          </Link>
        </Button>
      </div>
    </li>
  )
}

type Confirming = { kind: 'delete' | 'rotate'; endpoint: ListedEndpoint } | null

/** Organization → Webhooks: the endpoints, adding and changing them, and the way into each one's delivery log. */
export function WebhooksScreen() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const canManage = useCan({ webhook: ['manage'] })
  const endpoints = useQuery(trpc.webhooks.list.queryOptions())
  const update = useMutation(trpc.webhooks.update.mutationOptions())
  const remove = useMutation(trpc.webhooks.delete.mutationOptions())
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions())
  const sendTest = useMutation(trpc.webhooks.sendTest.mutationOptions())
  const [editing, setEditing] = useState<{ endpoint?: EditableEndpoint } | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const [confirming, setConfirming] = useState<Confirming>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() })

  const switchEndpoint = async (endpoint: ListedEndpoint) => {
    try {
      await update.mutateAsync({ id: endpoint.id, enabled: !endpoint.enabled })
      toast.success(endpoint.enabled ? m.webhooks_switched_off() : m.webhooks_switched_on())
    } catch (error) {
      toastError(error)
    }
    await refresh()
  }
  const sendTestEvent = async (endpoint: ListedEndpoint) => {
    try {
      await sendTest.mutateAsync({ id: endpoint.id })
      toast.success(m.webhooks_test_queued())
    } catch (error) {
      toastError(error)
    }
    await refresh()
  }
  const confirm = async () => {
    if (!confirming) return
    const { kind, endpoint } = confirming
    setConfirming(null)
    try {
      if (kind === 'delete') {
        await remove.mutateAsync({ id: endpoint.id })
        toast.success(m.webhooks_deleted())
      } else {
        setSecret((await rotate.mutateAsync({ id: endpoint.id })).secret)
      }
    } catch (error) {
      toastError(error)
    }
    await refresh()
  }

  const list = endpoints.data as ListedEndpoint[] | undefined
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={m.console_org_webhooks()}
        description={m.webhooks_description()}
        actions={
          canManage ? (
            <Button onClick={() => setEditing({})}>
              <PlusIcon aria-hidden />
              {m.webhooks_add()}
            </Button>
          ) : null
        }
      />
      <p className="-mt-2 mb-4 text-sm">
        <a
          href={`/${getLocale()}/docs/webhooks#verifying-a-delivery`}
          className="text-primary underline-offset-4 hover:underline"
        >
          {m.webhooks_docs_link()}
        </a>
      </p>
      {endpoints.isPending ? (
        <p role="status" className="py-6 text-sm text-muted-foreground">
          {m.loading()}
        </p>
      ) : endpoints.isError ? (
        <LoadError error={endpoints.error} onRetry={() => void endpoints.refetch()} />
      ) : !list || list.length === 0 ? (
        <EmptyState icon={WebhookIcon} title={m.webhooks_empty_title()}>
          {m.webhooks_empty_body()}
        </EmptyState>
      ) : (
        <ul className="divide-y rounded-xl border" data-testid="webhook-endpoints">
          {list.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              actions={
                canManage ? (
                  <RowActionsMenu label={m.webhooks_actions_for({ url: endpoint.url })}>
                    <DropdownMenuItem onSelect={() => setEditing({ endpoint })}>{m.webhooks_edit()}</DropdownMenuItem>
                    {endpoint.enabled ? (
                      <DropdownMenuItem onSelect={() => void sendTestEvent(endpoint)}>
                        {m.webhooks_send_test()}
                      </DropdownMenuItem>
                    ) : null}
                    <DropdownMenuItem onSelect={() => void switchEndpoint(endpoint)}>
                      {endpoint.enabled ? m.webhooks_switch_off() : m.webhooks_switch_on()}
                    </DropdownMenuItem>
                    <DropdownMenuItem onSelect={() => setConfirming({ kind: 'rotate', endpoint })}>
                      {m.webhooks_rotate()}
                    </DropdownMenuItem>
                    <DropdownMenuItem
                      className="text-destructive"
                      onSelect={() => setConfirming({ kind: 'delete', endpoint })}
                    >
                      {m.webhooks_delete()}
                    </DropdownMenuItem>
                  </RowActionsMenu>
                ) : null
              }
            />
          ))}
        </ul>
      )}
      {editing ? (
        <EndpointDialog endpoint={editing.endpoint} onClose={() => setEditing(null)} onCreated={setSecret} />
      ) : null}
      {secret ? <SecretNotice secret={secret} onDone={() => setSecret(null)} /> : null}
      <AlertDialog open={confirming !== null} onOpenChange={(open) => (open ? undefined : setConfirming(null))}>
        <AlertDialogContent>
          <AlertDialogTitle>
            {confirming?.kind === 'delete' ? m.webhooks_delete() : m.webhooks_rotate()}
          </AlertDialogTitle>
          <AlertDialogDescription className="break-words">
            {confirming?.kind === 'delete'
              ? m.webhooks_delete_confirm({ url: confirming.endpoint.url })
              : m.webhooks_rotate_confirm()}
          </AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel>{m.webhooks_cancel()}</AlertDialogCancel>
            <Button variant={confirming?.kind === 'delete' ? 'destructive' : 'default'} onClick={confirm}>
              {confirming?.kind === 'delete' ? m.webhooks_delete() : m.webhooks_rotate()}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  )
}
