// Paddle Billing's objects and webhook events read into the ledger's terms: pure functions of what Paddle sends, with
// no SDK client (that is provider.ts). Webhooks carry snake_case JSON; the SDK hands API objects over in
// camelCase. Amounts are strings of minor units.
//
// Hatch sells through non-catalog prices it makes for each checkout and plan change, and writes the order,
// organization, plan and period into the price's custom data. Only the API (with Hatch's key) can make such a price;
// a transaction's own custom data can also be set by anyone who opens Paddle.js on the site, so it is never trusted.

import type { LedgerChange, SubscriptionSnapshot, SubscriptionStatus } from '#/features/billing/server'
import { dateOf, isCurrency, isPaidPlanId, isRecord, text } from '#/features/billing/server'
import type { BillingInterval, PaidPlanId } from '#/lib/plans'

/** What Hatch writes into the custom data of each price it makes. */
export interface HatchPriceData {
  hatch_order_id: string
  hatch_organization_id: string
  hatch_plan: PaidPlanId
  hatch_interval: BillingInterval
  [key: string]: string
}

/** The parts of a subscription, as the SDK returns it, the ledger reads. */
export interface PaddleSubscription {
  id: string
  status: string
  customerId: string
  currencyCode: string
  canceledAt: string | null
  currentBillingPeriod: { startsAt: string; endsAt: string } | null
  scheduledChange: { action: string; effectiveAt: string } | null
  items: {
    status: string
    quantity: number
    price: {
      productId: string
      unitPrice: { amount: string }
      billingCycle: { interval: string; frequency: number } | null
      customData: Record<string, unknown> | null
    }
  }[]
}

export const paddleIntervals = { monthly: 'month', yearly: 'year' } as const satisfies Record<BillingInterval, string>

const statuses = new Map<string, SubscriptionStatus>([
  ['trialing', 'trialing'],
  ['active', 'active'],
  ['past_due', 'past_due'],
  ['canceled', 'canceled'],
  // Paused takes no payments and never ends by itself: the plan is not granted meanwhile (Hatch never pauses; a
  // pause comes from Paddle's dashboard or API).
  ['paused', 'incomplete'],
])

/** Hatch's data on a price, or undefined for a price Hatch did not make. */
export function hatchDataOf(customData: unknown): HatchPriceData | undefined {
  if (!isRecord(customData)) return undefined
  const orderId = text(customData.hatch_order_id)
  const organizationId = text(customData.hatch_organization_id)
  const { hatch_plan: planId, hatch_interval: interval } = customData
  if (!orderId || !organizationId || !isPaidPlanId(planId) || (interval !== 'monthly' && interval !== 'yearly')) {
    return undefined
  }
  return {
    hatch_order_id: orderId,
    hatch_organization_id: organizationId,
    hatch_plan: planId,
    hatch_interval: interval,
  }
}

/** The subscription's item Hatch sells through: the first whose price Hatch made. */
export function hatchItemOf(subscription: PaddleSubscription) {
  return subscription.items.find((item) => item.status !== 'inactive' && hatchDataOf(item.price.customData))
}

/**
 * The subscription in the ledger's terms, or undefined when Hatch did not sell it (no item at a price Hatch made).
 * A cancellation asked for is a scheduled change until the period ends; Hatch reads it as "cancels at period end".
 */
export function snapshotOf(subscription: PaddleSubscription): SubscriptionSnapshot | undefined {
  const item = hatchItemOf(subscription)
  const data = item && hatchDataOf(item.price.customData)
  if (!item || !data) return undefined
  const currency = subscription.currencyCode.toUpperCase()
  if (!isCurrency(currency)) throw new Error(`Paddle subscription ${subscription.id} bills in ${currency}`)
  const status = statuses.get(subscription.status) ?? 'incomplete'
  return {
    id: subscription.id,
    customerId: subscription.customerId || null,
    organizationId: data.hatch_organization_id,
    planId: data.hatch_plan,
    interval: data.hatch_interval,
    seats: item.quantity,
    currency,
    amount: Number(item.price.unitPrice.amount) * item.quantity,
    status,
    cancelAtPeriodEnd: subscription.scheduledChange?.action === 'cancel',
    currentPeriodStart: dateOf(subscription.currentBillingPeriod?.startsAt) ?? null,
    currentPeriodEnd: dateOf(subscription.currentBillingPeriod?.endsAt) ?? null,
    canceledAt: status === 'canceled' ? (dateOf(subscription.canceledAt) ?? null) : null,
  }
}

/** The parts of a transaction (one bill: a checkout's, a renewal's, a change's) a webhook carries. */
interface PaddleTransaction {
  id: string
  status: string
  origin: string
  customer_id?: string | null
  subscription_id?: string | null
  currency_code: string
  billing_period?: { starts_at: string; ends_at: string } | null
  items?: { price?: { custom_data?: unknown } | null }[]
  details?: { totals?: { grand_total?: string } | null } | null
}

/** The parts of an adjustment (a refund, a credit, a chargeback) a webhook carries. */
interface PaddleAdjustment {
  id: string
  action: string
  status: string
  transaction_id: string
  totals?: { total?: string } | null
}

/**
 * The order a transaction pays when it is a checkout's (renewals and changes carry the price, and so its data, on).
 * Hatch makes its checkouts through the API; a transaction made in the browser (origin `web`, with the public client
 * token) is never one of Hatch's orders.
 */
function checkoutOrderOf(transaction: PaddleTransaction): string | undefined {
  if (transaction.origin !== 'api') return undefined
  for (const item of transaction.items ?? []) {
    const data = hatchDataOf(item.price?.custom_data)
    if (data) return data.hatch_order_id
  }
  return undefined
}

function isHatchTransaction(transaction: PaddleTransaction): boolean {
  return (transaction.items ?? []).some((item) => hatchDataOf(item.price?.custom_data))
}

/** Whether a transaction, as the SDK returns it, sells a price Hatch made. */
export function soldByHatch(transaction: { items: { price: { customData: unknown } | null }[] }): boolean {
  return transaction.items.some((item) => hatchDataOf(item.price?.customData))
}

/** The transactions of a subscription that bill its plan: its renewals and Hatch's plan or seat changes. */
const billedOrigins = new Set(['subscription_recurring', 'subscription_update'])

function transactionChanges(type: string, transaction: PaddleTransaction): LedgerChange[] {
  // A sale some other integration of the same Paddle account made: not Hatch's to record.
  if (!isHatchTransaction(transaction)) return []
  const orderId = checkoutOrderOf(transaction)
  const subscriptionId = transaction.subscription_id ?? undefined
  const changed: LedgerChange[] = subscriptionId ? [{ type: 'subscription.changed', subscriptionId }] : []
  switch (type) {
    // "paid": the payment is captured; "completed": Paddle has processed it too (the subscription exists by then).
    case 'transaction.paid':
    case 'transaction.completed': {
      // A card update (a zero transaction) or a one-off charge is not a sale of a plan; renewals and changes are
      // recorded once, on "completed" (both events come for each, and each would make the renewal's order).
      if (!orderId && !billedOrigins.has(transaction.origin)) return changed
      if (!orderId && type === 'transaction.paid') return changed
      const changes: LedgerChange[] = []
      if (orderId) {
        changes.push({
          type: 'checkout.completed',
          orderId,
          checkoutId: transaction.id,
          paid: true,
          subscriptionId,
          customerId: transaction.customer_id ?? undefined,
        })
      }
      changes.push({
        type: 'payment.succeeded',
        orderId,
        subscriptionId,
        // A Paddle transaction is both the invoice and the payment.
        invoiceId: transaction.id,
        paymentId: transaction.id,
        amount: Number(transaction.details?.totals?.grand_total ?? 0),
        currency: transaction.currency_code.toUpperCase(),
        periodStart: dateOf(transaction.billing_period?.starts_at),
        periodEnd: dateOf(transaction.billing_period?.ends_at),
        ...(transaction.origin === 'subscription_update' && { reason: 'change' as const }),
      })
      return [...changes, ...changed]
    }
    case 'transaction.payment_failed':
      // At checkout Paddle lets the buyer try another card; the order is failed only if none goes through.
      return orderId ? [] : changed
    case 'transaction.past_due':
      return changed
    case 'transaction.canceled':
      return orderId ? [{ type: 'checkout.expired', orderId, checkoutId: transaction.id, reason: 'canceled' }] : []
    default:
      return []
  }
}

/**
 * A refund of a transaction. Paddle's adjustments are each one refund, not the running total the ledger wants, so the
 * provider adds up the transaction's approved refunds when the event arrives and keeps the sum with the event. Only
 * the payment is named: the provider's `invoiceOfPayment` says whether the transaction is one Hatch sold (a refund of
 * another integration's sale is none of the ledger's business, rather than an event retried for days).
 */
function adjustmentChanges(adjustment: PaddleAdjustment, refundedTotal: number | undefined): LedgerChange[] {
  if (adjustment.action !== 'refund' || adjustment.status !== 'approved') return []
  return [
    {
      type: 'payment.refunded',
      paymentId: adjustment.transaction_id,
      amountRefunded: refundedTotal ?? Number(adjustment.totals?.total ?? 0),
    },
  ]
}

/** What one Paddle webhook event means to the ledger; events Hatch keeps nothing of mean no change. */
export function changesOf(type: string, data: unknown, refundedTotal?: number): LedgerChange[] {
  if (!isRecord(data) || typeof data.id !== 'string') return []
  if (type.startsWith('transaction.')) return transactionChanges(type, data as unknown as PaddleTransaction)
  if (type === 'adjustment.created' || type === 'adjustment.updated') {
    return adjustmentChanges(data as unknown as PaddleAdjustment, refundedTotal)
  }
  switch (type) {
    case 'subscription.created':
    case 'subscription.activated':
    case 'subscription.updated':
    case 'subscription.trialing':
    case 'subscription.past_due':
    case 'subscription.paused':
    case 'subscription.resumed':
    case 'subscription.canceled':
      return [{ type: 'subscription.changed', subscriptionId: data.id }]
    default:
      // Acknowledged and stored, but nothing the ledger keeps (customer.*, address.*, payout.*…).
      return []
  }
}
