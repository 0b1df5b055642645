import { useQuery } from '@tanstack/react-query'
import { SettingsIcon } from 'lucide-react'
import type { PageChange } from '#/components/list-pager'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { planName } from '#/lib/plan-text'
import type { PlanId } from '#/lib/plans'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { formatDay, planSummary, subscriptionStatusLabel } from '../billing-format'
import type { OrdersPageSearch } from '../search'
import { OrdersSection } from './orders-section'
import '../billing-messages'

/**
 * The customer's order history: what the organization is on, every order with its receipt, and the way to Billing,
 * where the subscription is managed. It changes nothing itself, so it is also the page a payment returns to.
 */
export function OrderHistory({
  organizationName,
  canRead,
  canManage,
  highlightedOrderId,
  ordersPage,
  onOrdersPageChange,
}: {
  organizationName: string
  canRead: boolean
  canManage: boolean
  highlightedOrderId?: string
  ordersPage: OrdersPageSearch
  onOrdersPageChange: (change: PageChange, options?: { replace?: boolean }) => void
}) {
  return (
    <main id="main" className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">{m.my_orders_history_title()}</h1>
      <p className="mt-1 mb-6 text-muted-foreground">
        {m.my_orders_history_subtitle({ organization: organizationName })}
      </p>
      <PlanSummary canRead={canRead} canManage={canManage} />
      {canRead ? (
        <OrdersSection
          highlightedOrderId={highlightedOrderId}
          ordersPage={ordersPage}
          onOrdersPageChange={onOrdersPageChange}
          canManage={canManage}
        />
      ) : (
        <p className="mt-6 rounded-lg border border-dashed p-4 text-sm" role="status" data-testid="my-orders-no-access">
          {m.my_orders_no_access({ organization: organizationName })}
        </p>
      )}
    </main>
  )
}

/** What the organization is on now, read-only, with the way to Billing (and to a first plan, for Free). */
function PlanSummary({ canRead, canManage }: { canRead: boolean; canManage: boolean }) {
  const trpc = useTRPC()
  const overview = useQuery(trpc.billing.overview.queryOptions())
  if (overview.isPending) return <div className="h-24 animate-pulse rounded-xl bg-muted" aria-busy="true" />
  if (overview.error || !overview.data) {
    return <p className="text-sm text-destructive">{describeError(overview.error)}</p>
  }
  const subscription = overview.data.details?.subscription
  return (
    <section
      className="flex flex-wrap items-center justify-between gap-4 rounded-xl border p-4 sm:p-5"
      aria-labelledby="my-orders-plan"
      data-testid="my-orders-plan"
    >
      <div className="min-w-0">
        <h2 id="my-orders-plan" className="text-sm text-muted-foreground">
          {m.billing_plan_title()}
        </h2>
        <p className="text-lg font-semibold" data-testid="billing-plan-name">
          {subscription
            ? planSummary(subscription.planId, subscription.interval, subscription.seats)
            : planName(overview.data.planId as PlanId)}
        </p>
        {subscription ? (
          <p className="text-sm" data-testid="billing-plan-renewal">
            {subscriptionStatusLabel(subscription.status)} ·{' '}
            {subscription.cancelAtPeriodEnd
              ? m.billing_ends_on({ date: formatDay(subscription.currentPeriodEnd) })
              : m.billing_renews_on({ date: formatDay(subscription.currentPeriodEnd) })}
          </p>
        ) : null}
        {canRead ? <p className="mt-1 text-sm text-muted-foreground">{m.my_orders_manage_hint()}</p> : null}
      </div>
      {canRead ? (
        <div className="flex flex-wrap gap-2">
          {!subscription && canManage ? (
            <Button asChild variant="outline">
              <a href={`${localizeHref('/checkout')}?plan=pro`}>{m.billing_upgrade_to({ plan: planName('pro') })}</a>
            </Button>
          ) : null}
          <Button asChild>
            <a href={localizeHref('/console/organization/billing')} data-testid="my-orders-open-billing">
              <SettingsIcon aria-hidden />
              {m.my_orders_open_billing()}
            </a>
          </Button>
        </div>
      ) : null}
    </section>
  )
}
