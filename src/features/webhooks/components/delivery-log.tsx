import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ArrowLeftIcon, RotateCwIcon, SendIcon } from 'lucide-react'
import { toast } from 'sonner'
import { EmptyState } from '#/components/empty-state'
import { ListFilterSelect } from '#/components/list-filters'
import { ListPager, type PageChange } from '#/components/list-pager'
import { LoadError } from '#/components/list-screen'
import { Button } from '#/components/ui/button'
import { useCan } from '#/lib/console-session'
import { toastError } from '#/lib/error-toast'
import type { ListPageSize } from '#/lib/list-paging'
import { useTRPC } from '#/lib/trpc'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'
import { type DeliveryStatus, deliveryStatuses } from '../events'
import { deliveriesInputOf, type WebhooksSearch } from '../search'
import { DeliveryItem } from './delivery-item'
import { attemptLabel, deliveryStatusLabels } from './webhook-labels'

/** "Send again" for one delivery: the answer says at once whether it arrived. */
function useSendAgain() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const resend = useMutation(trpc.webhooks.resend.mutationOptions())
  const sendAgain = async (id: string) => {
    try {
      const result = await resend.mutateAsync({ id })
      if (result.delivered) toast.success(m.webhooks_resent_ok())
      else {
        const reason = attemptLabel({ outcome: result.failure ?? 'network', status: result.status })
        toast.error(m.webhooks_resent_failed({ reason }))
      }
    } catch (error) {
      toastError(error)
    }
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() })
  }
  return { sendAgain, sending: resend.isPending }
}

/** One endpoint's delivery log: each event sent to it, its payload and every attempt, with "send again". */
export function DeliveryLog({
  search,
  onSearchChange,
}: {
  search: WebhooksSearch & { endpoint: string }
  onSearchChange: (change: Partial<WebhooksSearch>) => void
}) {
  const trpc = useTRPC()
  const canManage = useCan({ webhook: ['manage'] })
  const input = deliveriesInputOf(search)
  const log = useQuery(trpc.webhooks.deliveries.queryOptions(input))
  const { sendAgain, sending } = useSendAgain()
  return (
    <div className="max-w-4xl">
      <Button variant="ghost" size="sm" asChild className="-ms-2 mb-2">
        <Link to="/console/organization/webhooks" search={{}}>
          <ArrowLeftIcon aria-hidden />
          {m.webhooks_back()}
        </Link>
      </Button>
      <h1 className="text-2xl font-semibold tracking-tight">{m.webhooks_deliveries()}</h1>
      {log.data ? (
        <p className="mt-1 font-mono text-sm break-all text-muted-foreground" data-testid="delivery-log-endpoint">
          {log.data.endpoint.url}
        </p>
      ) : null}
      <div className="mt-4 mb-3 flex flex-wrap items-end justify-between gap-3">
        <ListFilterSelect
          label={m.webhooks_delivery_status()}
          value={search.status}
          onChange={(status) => onSearchChange({ status: status as DeliveryStatus | undefined, page: undefined })}
          options={[
            ['', m.webhooks_delivery_status_all()],
            ...deliveryStatuses.map((status): [string, string] => [status, deliveryStatusLabels[status]()]),
          ]}
        />
        <Button variant="outline" size="sm" onClick={() => void log.refetch()} disabled={log.isFetching}>
          <RotateCwIcon aria-hidden className={cn(log.isFetching && 'animate-spin')} />
          {m.webhooks_refresh()}
        </Button>
      </div>
      {log.isPending ? (
        <p role="status" className="py-6 text-sm text-muted-foreground">
          {m.loading()}
        </p>
      ) : log.isError ? (
        <LoadError error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.deliveries.length === 0 ? (
        <EmptyState icon={SendIcon} title={m.webhooks_deliveries()}>
          {m.webhooks_deliveries_empty()}
        </EmptyState>
      ) : (
        <>
          <ul className="divide-y rounded-xl border" data-testid="webhook-deliveries">
            {log.data.deliveries.map((delivery) => (
              <DeliveryItem
                key={delivery.id}
                delivery={delivery}
                onSendAgain={canManage ? () => void sendAgain(delivery.id) : undefined}
                sending={sending}
              />
            ))}
          </ul>
          <ListPager
            page={input.page}
            size={input.size}
            total={log.data.total}
            onChange={(change: PageChange) =>
              onSearchChange({ page: change.page, size: change.size as ListPageSize | undefined })
            }
          />
        </>
      )}
    </div>
  )
}
