// Lemon Squeezy's objects and webhook events read into the ledger's terms: pure functions of what Lemon Squeezy
// sends (JSON:API documents, amounts in minor units, ISO dates), with no SDK client (that is
// provider.ts). Lemon Squeezy keeps a checkout's custom data only on its webhook events (`meta`), not on
// the objects its API returns, so the readers also say which organization an event's subscription belongs to.

import type { LedgerChange, SubscriptionSnapshot, SubscriptionStatus } from '#/features/billing/server'
import { addInterval, dateOf, isRecord, text } from '#/features/billing/server'
import { type BillingInterval, type Currency, type PaidPlanId, periodAmount, planById } from '#/lib/plans'

/** Which Lemon Squeezy variant sells which plan and period (LEMONSQUEEZY_VARIANTS). */
export type VariantPlans = Map<string, { planId: PaidPlanId; interval: BillingInterval }>

export interface LemonSqueezyResource {
  type: string
  id: string
  attributes: Record<string, unknown>
}

/** The parts of a subscription's attributes the ledger reads. */
export interface LemonSqueezySubscription {
  customer_id: number | string
  order_id: number | string
  variant_id: number | string
  status: string
  cancelled: boolean
  renews_at: string | null
  ends_at: string | null
  first_subscription_item?: { id: number | string; quantity: number } | null
}

/** What a webhook says Hatch's checkout was for (`meta.custom_data`; Lemon Squeezy sends its values as strings). */
export interface HatchCustomData {
  orderId?: string
  organizationId?: string
}

export function customDataOf(meta: unknown): HatchCustomData {
  const custom = isRecord(meta) && isRecord(meta.custom_data) ? meta.custom_data : {}
  return { orderId: text(custom.hatch_order_id), organizationId: text(custom.hatch_organization_id) }
}

/** Reads `LEMONSQUEEZY_VARIANTS`: `pro-monthly:123,pro-yearly:124,team-monthly:125,team-yearly:126`. */
export function parseVariantPlans(setting: string): VariantPlans {
  const plans: VariantPlans = new Map()
  for (const entry of setting
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^(pro|team)-(monthly|yearly):(\d+)$/.exec(entry)
    if (!match) throw new Error(`"${entry}" is not plan-period:variant-id, e.g. pro-monthly:123`)
    plans.set(match[3] as string, { planId: match[1] as PaidPlanId, interval: match[2] as BillingInterval })
  }
  return plans
}

export function variantOf(plans: VariantPlans, planId: PaidPlanId, interval: BillingInterval): string | undefined {
  for (const [variantId, plan] of plans) if (plan.planId === planId && plan.interval === interval) return variantId
  return undefined
}

const statuses = new Map<string, SubscriptionStatus>([
  ['on_trial', 'trialing'],
  ['active', 'active'],
  // "cancelled" keeps the plan until `ends_at`; "expired" is the end.
  ['cancelled', 'active'],
  ['past_due', 'past_due'],
  ['unpaid', 'past_due'],
  ['paused', 'past_due'],
  ['expired', 'canceled'],
])

/**
 * The subscription in the ledger's terms. Its plan and period come from its variant; its price from Hatch's plans
 * (each checkout sets it as the custom price, which renewals keep); its current period ends when it renews.
 */
export function snapshotOf(
  id: string,
  subscription: LemonSqueezySubscription,
  context: { organizationId: string; currency: Currency; plans: VariantPlans },
): SubscriptionSnapshot | null {
  const plan = context.plans.get(String(subscription.variant_id))
  if (!plan) return null
  const status = statuses.get(subscription.status) ?? 'incomplete'
  const seats = planById(plan.planId).perSeat ? (subscription.first_subscription_item?.quantity ?? 1) : 1
  const periodEnd = dateOf(subscription.cancelled ? subscription.ends_at : subscription.renews_at) ?? null
  const periodStart = periodEnd ? backOneInterval(periodEnd, plan.interval) : null
  return {
    id,
    customerId: text(subscription.customer_id) ?? null,
    organizationId: context.organizationId,
    planId: plan.planId,
    interval: plan.interval,
    seats,
    currency: context.currency,
    amount: periodAmount(planById(plan.planId), plan.interval, context.currency, seats),
    status,
    cancelAtPeriodEnd: subscription.cancelled && status !== 'canceled',
    currentPeriodStart: periodStart,
    currentPeriodEnd: periodEnd,
    canceledAt: status === 'canceled' ? (dateOf(subscription.ends_at) ?? null) : null,
  }
}

function backOneInterval(end: Date, interval: BillingInterval): Date {
  // The period that ends at `end` started one interval before (calendar months and years, as renewals are billed).
  const start = new Date(end)
  if (interval === 'yearly') start.setUTCFullYear(start.getUTCFullYear() - 1)
  else start.setUTCMonth(start.getUTCMonth() - 1)
  // Guards month ends: a start whose next period does not end at `end` is one day later (31 Jan → 28 Feb).
  return addInterval(start, interval).getTime() === end.getTime() ? start : new Date(start.getTime() + 86_400_000)
}

function invoiceChanges(eventName: string, invoice: LemonSqueezyResource, custom: HatchCustomData): LedgerChange[] {
  const attributes = invoice.attributes
  const subscriptionId = text(attributes.subscription_id)
  if (!subscriptionId) return []
  const reason = attributes.billing_reason
  switch (eventName) {
    case 'subscription_payment_success': {
      // The first invoice pays the checkout's order (`order_created` pays it too, whichever comes first).
      if (reason === 'initial' && !custom.orderId) return [{ type: 'subscription.changed', subscriptionId }]
      const urls = isRecord(attributes.urls) ? attributes.urls : {}
      return [
        {
          type: 'payment.succeeded',
          orderId: reason === 'initial' ? custom.orderId : undefined,
          subscriptionId,
          invoiceId: invoice.id,
          paymentId: invoice.id,
          amount: Number(attributes.total ?? 0),
          currency: String(attributes.currency ?? '').toUpperCase(),
          receiptUrl: text(urls.invoice_url),
          ...(reason === 'updated' && { reason: 'change' as const }),
        },
        { type: 'subscription.changed', subscriptionId },
      ]
    }
    case 'subscription_payment_failed':
      return [
        { type: 'payment.failed', subscriptionId, invoiceId: invoice.id },
        { type: 'subscription.changed', subscriptionId },
      ]
    case 'subscription_payment_refunded':
      return [
        {
          type: 'payment.refunded',
          invoiceId: invoice.id,
          paymentId: invoice.id,
          amountRefunded: Number(attributes.refunded_amount ?? 0),
        },
      ]
    default:
      return [{ type: 'subscription.changed', subscriptionId }]
  }
}

/** What one Lemon Squeezy webhook event means to the ledger; events Hatch keeps nothing of mean no change. */
export function changesOf(eventName: string, data: LemonSqueezyResource, custom: HatchCustomData): LedgerChange[] {
  const attributes = data.attributes
  if (data.type === 'subscription-invoices') return invoiceChanges(eventName, data, custom)
  if (data.type === 'orders') {
    // An order some other integration of the same store sold: not Hatch's to record.
    if (!custom.orderId) return []
    if (eventName === 'order_created') {
      return [
        {
          type: 'checkout.completed',
          orderId: custom.orderId,
          checkoutId: data.id,
          paid: attributes.status === 'paid',
        },
      ]
    }
    if (eventName === 'order_refunded') {
      return [
        { type: 'payment.refunded', orderId: custom.orderId, amountRefunded: Number(attributes.refunded_amount ?? 0) },
      ]
    }
    return []
  }
  if (data.type === 'subscriptions' && eventName.startsWith('subscription_')) {
    const changes: LedgerChange[] = []
    // The subscription a checkout started: the order learns it (and is paid by its first invoice or its order).
    if (eventName === 'subscription_created' && custom.orderId) {
      changes.push({
        type: 'checkout.completed',
        orderId: custom.orderId,
        checkoutId: text(attributes.order_id) ?? data.id,
        paid: false,
        subscriptionId: data.id,
        customerId: text(attributes.customer_id),
      })
    }
    changes.push({ type: 'subscription.changed', subscriptionId: data.id })
    return changes
  }
  return []
}
