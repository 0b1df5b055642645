import { and, count, inArray, sql, sum } from 'drizzle-orm'
import { bucketed, bucketsOf, byDay, dayIn, type Granularity, total, withinDays } from '#/features/dashboard/server'
import { type PaidPlanId, paidPlanIds } from '#/lib/plans'
import type { Database } from '#/server/db/client'
import { billingOrders, billingSubscriptions } from './schema'
import { grantingStatuses } from './subscriptions'

/**
 * Orders whose money arrived (the billing ledger's order states); a refund later lowers their revenue but does not
 * undo the sale.
 */
const paidStatuses = ['paid', 'partially_refunded', 'refunded'] as const

/**
 * Subscriptions that pay now: a trial has not paid yet; past_due is still billed (the provider is retrying), and one
 * set to end at its period's end still pays until then.
 */
const payingStatuses = ['active', 'past_due'] as const

const monthsPerInterval: Record<string, number> = { monthly: 1, yearly: 12 }

/**
 * Orders and revenue per bucket and currency (amounts in minor units, never converted between currencies; revenue is
 * net of refunds), MRR per currency and the subscriptions that grant each paid plan.
 */
export async function readRevenueNumbers(
  db: Database,
  range: { from: string; to: string; granularity: Granularity; timeZone: string },
) {
  // An order is dated by its payment; one paid before the ledger recorded payment times falls back to its creation.
  const paidAt = sql`coalesce(${billingOrders.paidAt}, ${billingOrders.createdAt})`
  const [orderRows, subscriptionRows, planRows] = await Promise.all([
    db
      .select({
        day: dayIn(paidAt, range.timeZone),
        currency: billingOrders.currency,
        orders: count(),
        revenue: sql<number>`sum(${billingOrders.amount} - ${billingOrders.amountRefunded})`.mapWith(Number),
        refunded: sql<number>`sum(${billingOrders.amountRefunded})`.mapWith(Number),
      })
      .from(billingOrders)
      .where(
        and(inArray(billingOrders.status, [...paidStatuses]), withinDays(paidAt, range.timeZone, range.from, range.to)),
      )
      .groupBy(sql`1`, sql`2`),
    db
      .select({
        currency: billingSubscriptions.currency,
        interval: billingSubscriptions.interval,
        // `amount` is what one period costs, seats included (the ledger stores the provider's total).
        amount: sum(billingSubscriptions.amount).mapWith(Number),
      })
      .from(billingSubscriptions)
      .where(inArray(billingSubscriptions.status, [...payingStatuses]))
      .groupBy(billingSubscriptions.currency, billingSubscriptions.interval),
    db
      .select({ planId: billingSubscriptions.planId, count: count() })
      .from(billingSubscriptions)
      .where(inArray(billingSubscriptions.status, [...grantingStatuses]))
      .groupBy(billingSubscriptions.planId),
  ])

  const buckets = bucketsOf(range.from, range.to, range.granularity)
  const currencies = [...new Set(orderRows.map((row) => row.currency))].sort()
  const keys = ['orders', 'revenue', 'refunded'] as const
  const revenue = currencies.map((currency) => {
    const series = bucketed(
      buckets,
      byDay(
        orderRows.filter((row) => row.currency === currency),
        keys,
      ),
      keys,
    )
    return {
      currency,
      orders: total(series, (row) => row.orders),
      revenue: total(series, (row) => row.revenue),
      refunded: total(series, (row) => row.refunded),
      series: series.map(({ start, orders, revenue }) => ({ start, orders, revenue })),
    }
  })

  const mrrByCurrency = new Map<string, number>()
  for (const row of subscriptionRows) {
    const months = monthsPerInterval[row.interval] ?? 1
    mrrByCurrency.set(row.currency, (mrrByCurrency.get(row.currency) ?? 0) + row.amount / months)
  }
  const mrr = [...mrrByCurrency]
    .map(([currency, amount]) => ({ currency, amount: Math.round(amount) }))
    .sort((a, b) => (a.currency < b.currency ? -1 : 1))

  const subscriptionsByPlan = paidPlanIds.map((planId: PaidPlanId) => ({
    planId,
    count: planRows.find((row) => row.planId === planId)?.count ?? 0,
  }))

  return {
    revenue,
    mrr,
    subscriptionsByPlan,
    activeSubscriptions: total(planRows, (row) => row.count),
  }
}
