import type { inferRouterOutputs } from '@trpc/server'
import { listColumnHelper } from '#/components/list-table'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { AppRouter } from '#/server/trpc/root'
import { formatDay, money, orderStatusLabel, planSummary } from '../billing-format'

export type OrderRow = inferRouterOutputs<AppRouter>['billing']['orders']['items'][number]

const column = listColumnHelper<OrderRow>()

/** The orders list's columns; none sorts (the newest order comes first). */
export function orderColumns() {
  return column.columns([
    column.accessor('createdAt', {
      header: m.billing_col_date,
      cell: (info) => <span className="whitespace-nowrap">{formatDay(info.getValue())}</span>,
    }),
    column.accessor('planId', {
      header: m.billing_col_plan,
      cell: ({ row }) => (
        <span className="whitespace-nowrap">
          {planSummary(row.original.planId, row.original.interval, row.original.seats)}
          {row.original.kind === 'checkout' ? null : (
            <span className="ms-2 text-xs text-muted-foreground">
              {row.original.kind === 'change' ? m.billing_plan_change_order() : m.billing_renewal()}
            </span>
          )}
        </span>
      ),
    }),
    column.accessor('periodEnd', {
      header: m.billing_col_period,
      cell: ({ row }) =>
        row.original.periodStart && row.original.periodEnd ? (
          <span className="whitespace-nowrap">
            {formatDay(row.original.periodStart)} – {formatDay(row.original.periodEnd)}
          </span>
        ) : (
          '—'
        ),
    }),
    column.accessor('amount', {
      header: m.billing_col_amount,
      cell: ({ row }) => (
        <span className="whitespace-nowrap tabular-nums">
          {money(row.original.amount, row.original.currency)}
          {row.original.amountRefunded > 0 ? (
            <span className="block text-xs text-muted-foreground">
              {m.billing_refunded_amount({ amount: money(row.original.amountRefunded, row.original.currency) })}
            </span>
          ) : null}
        </span>
      ),
    }),
    column.accessor('status', {
      header: m.billing_col_status,
      cell: ({ row }) => (
        <span className="rounded-full border px-2 py-0.5 text-xs whitespace-nowrap" data-testid="order-status">
          {orderStatusLabel(row.original.status, row.original.processing)}
        </span>
      ),
    }),
    column.accessor('paidAt', {
      id: 'receipt',
      header: m.billing_col_receipt,
      // Every order that took money has a receipt, whichever provider took it: Hatch's address finds it.
      cell: ({ row }) =>
        row.original.paidAt ? (
          <a
            className="underline underline-offset-4"
            href={localizeHref(`/receipts/${encodeURIComponent(row.original.id)}`)}
            data-testid="order-receipt"
          >
            {m.billing_receipt_link()}
          </a>
        ) : (
          '—'
        ),
    }),
  ])
}
