import { useSuspenseQuery } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { ArrowLeftIcon, FlaskConicalIcon, PrinterIcon } from 'lucide-react'
import { Button } from '#/components/ui/button'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { AppRouter } from '#/server/trpc/root'
import { formatDay, money, orderStatusLabel, planSummary } from '../billing-format'
import '../billing-messages'

type Receipt = NonNullable<inferRouterOutputs<AppRouter>['billing']['receipt']['open']['receipt']>

function lineOf(receipt: Receipt): string {
  const plan = planSummary(receipt.planId, receipt.interval, receipt.seats)
  if (receipt.kind === 'change') return m.receipt_line_change({ plan })
  if (receipt.kind === 'renewal') return m.receipt_line_renewal({ plan })
  return m.receipt_line_checkout({ plan })
}

/**
 * Hatch's own receipt for a paid order, where the provider has none (the built-in provider, or a provider whose
 * receipt cannot be had now): a document to print, so everything around it disappears on paper.
 */
export function ReceiptScreen({ orderId }: { orderId: string }) {
  const trpc = useTRPC()
  const { data } = useSuspenseQuery(trpc.billing.receipt.open.queryOptions({ orderId }))
  const receipt = data.receipt
  if (!receipt) return null
  const total = money(receipt.amount, receipt.currency)
  return (
    // Paper is white whatever the theme: printing swaps the dark colors for black on white.
    <div className="min-h-dvh bg-background text-foreground print:[--background:white] print:[--border:#bbb] print:[--card-foreground:black] print:[--card:white] print:[--foreground:black] print:[--muted-foreground:#444]">
      <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 print:max-w-none print:p-0">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
          <Button asChild variant="ghost" size="sm">
            <a href={localizeHref(`/my-orders?order=${encodeURIComponent(receipt.orderId)}`)}>
              <ArrowLeftIcon aria-hidden />
              {m.receipt_back()}
            </a>
          </Button>
          <Button size="sm" onClick={() => window.print()}>
            <PrinterIcon aria-hidden />
            {m.receipt_print()}
          </Button>
        </div>
        <article
          className="rounded-xl border bg-card p-5 text-card-foreground sm:p-8 print:rounded-none print:border-0 print:bg-transparent print:p-0"
          data-testid="receipt"
        >
          <header className="flex flex-wrap items-start justify-between gap-4 border-b pb-5">
            <div className="min-w-0">
              <p className="text-lg font-semibold break-words">{receipt.seller}</p>
              <p className="text-sm break-all text-muted-foreground">{receipt.sellerUrl}</p>
            </div>
            <div className="text-end">
              <h1 className="text-2xl font-semibold tracking-tight">{m.receipt_title()}</h1>
              <p
                className="mt-1 inline-block rounded-full border px-2 py-0.5 text-xs whitespace-nowrap"
                data-testid="receipt-status"
              >
                {orderStatusLabel(receipt.status)}
              </p>
            </div>
          </header>

          <dl className="grid gap-x-6 gap-y-3 border-b py-5 text-sm sm:grid-cols-2">
            <div className="min-w-0 sm:col-span-2">
              <dt className="text-muted-foreground">{m.receipt_number()}</dt>
              <dd className="mt-0.5 font-mono text-xs break-all" data-testid="receipt-number">
                {receipt.orderId}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{m.receipt_date_paid()}</dt>
              <dd className="mt-0.5" data-testid="receipt-date">
                {formatDay(receipt.paidAt)}
              </dd>
            </div>
            <div className="min-w-0">
              <dt className="text-muted-foreground">{m.receipt_billed_to()}</dt>
              <dd className="mt-0.5 break-words" data-testid="receipt-billed-to">
                {receipt.organizationName}
              </dd>
            </div>
          </dl>

          <table className="mt-5 w-full text-sm">
            <thead>
              <tr className="text-muted-foreground">
                <th scope="col" className="pb-2 text-start font-medium">
                  {m.receipt_description()}
                </th>
                <th scope="col" className="pb-2 text-end font-medium">
                  {m.receipt_amount()}
                </th>
              </tr>
            </thead>
            <tbody>
              <tr className="border-t align-top">
                <td className="py-3 pe-4">
                  <p data-testid="receipt-line">{lineOf(receipt)}</p>
                  {receipt.periodStart && receipt.periodEnd ? (
                    <p className="mt-0.5 text-xs text-muted-foreground">
                      {m.receipt_period({ start: formatDay(receipt.periodStart), end: formatDay(receipt.periodEnd) })}
                    </p>
                  ) : null}
                  {receipt.kind === 'change' ? (
                    <p className="mt-0.5 text-xs text-muted-foreground">{m.receipt_change_note()}</p>
                  ) : null}
                </td>
                <td className="py-3 text-end whitespace-nowrap tabular-nums">{total}</td>
              </tr>
            </tbody>
            <tfoot>
              <tr className="border-t font-semibold">
                <th scope="row" className="pt-3 text-start">
                  {m.receipt_total_paid()}
                </th>
                <td className="pt-3 text-end whitespace-nowrap tabular-nums" data-testid="receipt-total">
                  {total}
                </td>
              </tr>
              {receipt.amountRefunded > 0 ? (
                <tr>
                  <th scope="row" className="pt-1 text-start font-normal text-muted-foreground">
                    {m.receipt_refunded()}
                  </th>
                  <td className="pt-1 text-end whitespace-nowrap tabular-nums" data-testid="receipt-refunded">
                    −{money(receipt.amountRefunded, receipt.currency)}
                  </td>
                </tr>
              ) : null}
            </tfoot>
          </table>

          {receipt.test ? (
            <p
              role="note"
              className="mt-6 flex items-start gap-2 rounded-lg border border-amber-500/50 bg-amber-500/10 p-3 text-sm text-amber-900 dark:text-amber-200 print:border-black print:bg-transparent print:text-black!"
            >
              <FlaskConicalIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
              {m.receipt_test_notice()}
            </p>
          ) : null}
        </article>
      </main>
    </div>
  )
}
