// Polar's objects and webhook events read into the ledger's terms: pure functions of what Polar sends, with no SDK
// client (that is provider.ts), so they can be read and tested apart from the calls. Polar's API and webhooks
// use snake_case JSON with ISO dates and amounts in minor units.

import type { LedgerChange, SubscriptionSnapshot, SubscriptionStatus } from '#/features/billing/server'
import { dateOf, isCurrency, isPaidPlanId, isRecord, text } from '#/features/billing/server'
import type { BillingInterval } from '#/lib/plans'

export type PolarMetadata = Record<string, string | number | boolean>

/** The parts of Polar's Subscription object the ledger reads. */
export interface PolarSubscription {
  id: string
  amount: number
  currency: string
  recurring_interval: string
  status: string
  current_period_start: string | null
  current_period_end: string | null
  cancel_at_period_end: boolean
  canceled_at: string | null
  ended_at: string | null
  customer_id: string
  product_id: string
  seats?: number | null
  metadata: PolarMetadata
  customer?: { external_id?: string | null } | null
  product?: { metadata?: PolarMetadata | null } | null
}

/** The parts of Polar's Order object (one payment: a checkout's first, a renewal, a plan change) the ledger reads. */
export interface PolarOrder {
  id: string
  status: string
  paid: boolean
  total_amount: number
  refunded_amount: number
  refunded_tax_amount?: number
  currency: string
  billing_reason: string
  subscription_id: string | null
  checkout_id: string | null
  metadata: PolarMetadata
  items?: { start_timestamp: string | null; end_timestamp: string | null }[]
}

/** The parts of Polar's Checkout object the ledger reads. */
export interface PolarCheckout {
  id: string
  status: string
  customer_id: string | null
  subscription_id: string | null
  metadata: PolarMetadata
}

export const polarIntervals = { monthly: 'month', yearly: 'year' } as const satisfies Record<BillingInterval, string>

const statuses = new Map<string, SubscriptionStatus>([
  ['trialing', 'trialing'],
  ['active', 'active'],
  ['past_due', 'past_due'],
  ['canceled', 'canceled'],
  ['incomplete', 'incomplete'],
  // Both keep the subscription but stop payments: Hatch treats them like a payment that has not come in.
  ['unpaid', 'past_due'],
  ['paused', 'past_due'],
  ['incomplete_expired', 'canceled'],
])

/**
 * The subscription in the ledger's terms. Hatch's plan and interval come from the metadata the checkout (or a plan
 * change) put on it, else from the product's, which Hatch made; the organization from the metadata, else from the
 * customer's external id, which is the organization's id.
 */
export function snapshotOf(subscription: PolarSubscription): SubscriptionSnapshot {
  const metadata = subscription.metadata ?? {}
  const productMetadata = subscription.product?.metadata ?? {}
  const organizationId = text(metadata.hatch_organization_id) ?? text(subscription.customer?.external_id)
  // The product's first: a plan changed in Polar's portal changes the product, not the subscription's metadata.
  const planId = productMetadata.hatch_plan ?? metadata.hatch_plan
  const interval: BillingInterval | undefined =
    subscription.recurring_interval === 'year'
      ? 'yearly'
      : subscription.recurring_interval === 'month'
        ? 'monthly'
        : undefined
  if (!organizationId || !isPaidPlanId(planId) || !interval) {
    throw new Error(`Polar subscription ${subscription.id} was not started by a Hatch checkout (no Hatch metadata)`)
  }
  const currency = subscription.currency.toUpperCase()
  if (!isCurrency(currency)) throw new Error(`Polar subscription ${subscription.id} bills in ${currency}`)
  const status = statuses.get(subscription.status) ?? 'incomplete'
  return {
    id: subscription.id,
    customerId: subscription.customer_id || null,
    organizationId,
    planId,
    interval,
    seats: subscription.seats ?? 1,
    currency,
    amount: subscription.amount,
    status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodStart: dateOf(subscription.current_period_start) ?? null,
    currentPeriodEnd: dateOf(subscription.current_period_end) ?? null,
    // Polar sets `canceled_at` when a cancellation is asked for; Hatch means the end.
    canceledAt: status === 'canceled' ? (dateOf(subscription.ended_at ?? subscription.canceled_at) ?? null) : null,
  }
}

function checkoutChanges(checkout: PolarCheckout): LedgerChange[] {
  const orderId = text(checkout.metadata?.hatch_order_id)
  // A checkout some other integration of the same Polar organization made: not Hatch's to record.
  if (!orderId) return []
  const subscriptionId = checkout.subscription_id ?? undefined
  switch (checkout.status) {
    // "confirmed": the buyer paid and the payment is being processed; "succeeded": it went through.
    case 'confirmed':
    case 'succeeded': {
      const changes: LedgerChange[] = [
        {
          type: 'checkout.completed',
          orderId,
          checkoutId: checkout.id,
          paid: checkout.status === 'succeeded',
          subscriptionId,
          customerId: checkout.customer_id ?? undefined,
        },
      ]
      if (subscriptionId) changes.push({ type: 'subscription.changed', subscriptionId })
      return changes
    }
    case 'expired':
      return [{ type: 'checkout.expired', orderId, checkoutId: checkout.id }]
    case 'failed':
      return [{ type: 'payment.failed', orderId }]
    default:
      return []
  }
}

function orderPaid(order: PolarOrder): LedgerChange[] {
  const subscriptionId = order.subscription_id ?? undefined
  // A one-time purchase some other integration sold: nothing of Hatch's.
  if (!subscriptionId) return []
  const starts = (order.items ?? []).map((item) => dateOf(item.start_timestamp)).filter((date) => date !== undefined)
  const ends = (order.items ?? []).map((item) => dateOf(item.end_timestamp)).filter((date) => date !== undefined)
  return [
    {
      type: 'payment.succeeded',
      // Only the order a checkout's subscription opens with pays that checkout's order; renewals pay no order.
      orderId: order.billing_reason === 'subscription_create' ? text(order.metadata?.hatch_order_id) : undefined,
      subscriptionId,
      // A Polar order is both the invoice and the payment.
      invoiceId: order.id,
      paymentId: order.id,
      amount: order.total_amount,
      currency: order.currency.toUpperCase(),
      periodStart: starts.length > 0 ? new Date(Math.min(...starts.map(Number))) : undefined,
      periodEnd: ends.length > 0 ? new Date(Math.max(...ends.map(Number))) : undefined,
      ...(order.billing_reason === 'subscription_update' && { reason: 'change' as const }),
    },
    { type: 'subscription.changed', subscriptionId },
  ]
}

function orderRefunded(order: PolarOrder): LedgerChange[] {
  if (!order.subscription_id || order.refunded_amount <= 0) return []
  // Polar reports the order's refunded total, as the ledger wants it, whatever order partial refunds arrive in.
  return [
    {
      type: 'payment.refunded',
      invoiceId: order.id,
      paymentId: order.id,
      // The order's total includes the tax Polar charged; its refunded amount leaves the refunded tax apart.
      amountRefunded: order.refunded_amount + (order.refunded_tax_amount ?? 0),
    },
  ]
}

/** What one Polar webhook event means to the ledger; events Hatch keeps nothing of mean no change. */
export function changesOf(type: string, data: unknown): LedgerChange[] {
  if (!isRecord(data) || typeof data.id !== 'string') return []
  switch (type) {
    case 'checkout.updated':
    case 'checkout.expired':
      return checkoutChanges(data as unknown as PolarCheckout)
    case 'order.paid':
      return orderPaid(data as unknown as PolarOrder)
    case 'order.refunded':
    case 'order.updated':
      return orderRefunded(data as unknown as PolarOrder)
    // A failed renewal makes the subscription past due: the ledger reads that from the subscription itself.
    case 'subscription.past_due':
    case 'subscription.created':
    case 'subscription.updated':
    case 'subscription.active':
    case 'subscription.canceled':
    case 'subscription.uncanceled':
    case 'subscription.revoked':
    case 'subscription.paused':
    case 'subscription.resumed':
    case 'subscription.cycled':
      return [{ type: 'subscription.changed', subscriptionId: data.id }]
    default:
      // Acknowledged and stored, but nothing the ledger keeps (order.created, refund.*, customer.*, benefits…).
      return []
  }
}
