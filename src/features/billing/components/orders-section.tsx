import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { ReceiptIcon } from 'lucide-react'
import { useEffect } from 'react'
import type { PageChange } from '#/components/list-pager'
import { ListBody, useListScreen } from '#/components/list-screen'
import { ListTable } from '#/components/list-table'
import { SettingsSection } from '#/components/settings-section'
import { Button } from '#/components/ui/button'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { formatMoment, planSummary } from '../billing-format'
import { type OrdersPageSearch, orderListInputOf } from '../search'
import { orderColumns } from './order-columns'

/** How often a page waiting for a payment event asks again. */
const waitingRefetchMs = 1500

/** The organization's orders, page by page, with the payments still on their way and the checkouts left unfinished. */
export function OrdersSection({
  highlightedOrderId,
  ordersPage,
  onOrdersPageChange,
  canManage,
}: {
  highlightedOrderId?: string
  ordersPage: OrdersPageSearch
  onOrdersPageChange: (change: PageChange, options?: { replace?: boolean }) => void
  canManage: boolean
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const input = orderListInputOf(ordersPage)
  const query = useQuery({
    ...trpc.billing.orders.queryOptions(input),
    placeholderData: keepPreviousData,
    // The redirect back from checkout proves nothing: the page waits for the provider's event. A checkout the buyer
    // left unfinished is waited for only on the page it returned to (it may be finished in another tab).
    refetchInterval: (current) => {
      const page = current.state.data
      const highlighted = page?.items.find((order) => order.id === highlightedOrderId)
      const waiting =
        page?.anyProcessing || (highlightedOrderId !== undefined && (!highlighted || highlighted.status === 'pending'))
      return waiting ? waitingRefetchMs : false
    },
  })
  const list = useListScreen({ search: ordersPage, onSearchChange: onOrdersPageChange, query, paging: input })
  const orders = query.data

  // Once an awaited payment lands, the plan it bought shows too.
  const settledCount = list.rows.filter((order) => order.status !== 'pending').length
  useEffect(() => {
    if (settledCount > 0) void queryClient.invalidateQueries({ queryKey: trpc.billing.overview.queryKey() })
  }, [settledCount, queryClient, trpc])

  return (
    <SettingsSection id="billing-orders" title={m.billing_orders_title()}>
      <div className="mt-3">
        <ListBody
          list={list}
          empty={{
            icon: ReceiptIcon,
            title: m.billing_orders_empty_title(),
            description: m.billing_orders_empty_description(),
          }}
        >
          <ListTable
            list={list}
            columns={orderColumns}
            testId="orders-list"
            rowTestId="order-row"
            highlightedRowId={highlightedOrderId}
          />
        </ListBody>
        {orders?.anyProcessing ? (
          <p className="mt-2 text-sm text-muted-foreground" role="status" data-testid="billing-processing">
            {m.billing_processing_note()}
          </p>
        ) : null}
        {(orders?.unfinished ?? []).map((order) => (
          <div
            key={order.id}
            className="mt-3 flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3 text-sm"
            data-testid="billing-unfinished-checkout"
          >
            <p>
              {m.billing_unfinished_note({
                plan: planSummary(order.planId, order.interval, order.seats),
                time: formatMoment(order.expiresAt),
              })}
            </p>
            {canManage && order.resumeUrl ? (
              <Button asChild size="sm">
                <a href={order.resumeUrl}>{m.billing_resume_checkout()}</a>
              </Button>
            ) : null}
          </div>
        ))}
      </div>
    </SettingsSection>
  )
}
