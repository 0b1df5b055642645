// Stripe's objects and events read into the ledger's terms: pure functions of what Stripe sends, with no SDK client
// (that is provider.ts), so they can be read and tested apart from the calls.
import type Stripe from 'stripe'
import type { LedgerChange, SubscriptionSnapshot, SubscriptionStatus } from '#/features/billing/server'
import { isCurrency, isPaidPlanId, isRecord } from '#/features/billing/server'
import type { BillingInterval } from '#/lib/plans'

/**
 * Invoice fields from before API version 2025-03-31.basil, which moved them under `parent.subscription_details` and
 * `payments`. Events sent to an endpoint on an older version, and events stored back then, still carry them.
 */
interface LegacyInvoiceFields {
  subscription?: string | Stripe.Subscription | null
  subscription_details?: { metadata?: Stripe.Metadata | null } | null
  payment_intent?: string | Stripe.PaymentIntent | null
}
type AnyInvoice = Stripe.Invoice & LegacyInvoiceFields

/** Subscription periods lived on the subscription until API version 2025-03-31.basil moved them to each item. */
interface LegacySubscriptionFields {
  current_period_start?: number | null
  current_period_end?: number | null
}
type AnySubscription = Stripe.Subscription & LegacySubscriptionFields

export const stripeIntervals = { monthly: 'month', yearly: 'year' } as const satisfies Record<BillingInterval, string>

/** The id of an expandable field, whether Stripe sent the id or the whole object. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value || undefined
  if (isRecord(value) && typeof value.id === 'string') return value.id
  return undefined
}

function dateOf(seconds: number | null | undefined): Date | undefined {
  return typeof seconds === 'number' ? new Date(seconds * 1000) : undefined
}

function intervalOf(metadata: Stripe.Metadata, price: Stripe.Price | undefined): BillingInterval | undefined {
  if (metadata.hatch_interval === 'monthly' || metadata.hatch_interval === 'yearly') return metadata.hatch_interval
  // A subscription changed outside Hatch (in the Dashboard) keeps the price's own interval.
  if (price?.recurring?.interval === 'month') return 'monthly'
  if (price?.recurring?.interval === 'year') return 'yearly'
  return undefined
}

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

function statusOf(status: Stripe.Subscription.Status): SubscriptionStatus {
  // A status newer than this code grants nothing until someone maps it.
  return statuses.get(status) ?? 'incomplete'
}

/** Per unit, in minor units; prices made from `price_data` with a decimal amount only have the decimal string. */
function unitAmountOf(price: Stripe.Price | undefined): number {
  if (!price) return 0
  if (typeof price.unit_amount === 'number') return price.unit_amount
  const decimal = Number(String(price.unit_amount_decimal ?? '0'))
  return Number.isFinite(decimal) ? Math.round(decimal) : 0
}

export function snapshotOf(subscription: AnySubscription): SubscriptionSnapshot {
  const metadata = subscription.metadata ?? {}
  const item = subscription.items?.data?.[0]
  const price = item?.price
  const organizationId = metadata.hatch_organization_id
  const planId = metadata.hatch_plan
  const interval = intervalOf(metadata, price)
  if (!organizationId || !isPaidPlanId(planId) || !interval) {
    throw new Error(`Stripe subscription ${subscription.id} was not started by a Hatch checkout (no Hatch metadata)`)
  }
  const currency = (price?.currency ?? subscription.currency ?? '').toUpperCase()
  if (!isCurrency(currency)) throw new Error(`Stripe subscription ${subscription.id} bills in ${currency}`)
  const seats = item?.quantity ?? 1
  const status = statusOf(subscription.status)
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? null,
    organizationId,
    planId,
    interval,
    seats,
    currency,
    amount: unitAmountOf(price) * seats,
    status,
    // Newer API versions record "cancel at period end" as a `cancel_at` date too, and the Dashboard may set only that.
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at != null,
    currentPeriodStart: dateOf(item?.current_period_start ?? subscription.current_period_start) ?? null,
    currentPeriodEnd: dateOf(item?.current_period_end ?? subscription.current_period_end) ?? null,
    // Stripe sets `canceled_at` when a cancellation is asked for, long before the period ends; Hatch means the end.
    canceledAt: status === 'canceled' ? (dateOf(subscription.ended_at ?? subscription.canceled_at) ?? null) : null,
  }
}

function orderIdOf(metadata: Stripe.Metadata | null | undefined): string | undefined {
  return metadata?.hatch_order_id || undefined
}

function checkoutCompleted(session: Stripe.Checkout.Session, paid: boolean): LedgerChange[] {
  const orderId = orderIdOf(session.metadata)
  // A session some other integration on the account made: not Hatch's to record.
  if (!orderId) return []
  const subscriptionId = idOf(session.subscription)
  const changes: LedgerChange[] = [
    {
      type: 'checkout.completed',
      orderId,
      checkoutId: session.id,
      paid,
      subscriptionId,
      customerId: idOf(session.customer),
    },
  ]
  if (subscriptionId) changes.push({ type: 'subscription.changed', subscriptionId })
  return changes
}

/** The subscription an invoice bills and that subscription's metadata, in either invoice shape. */
function invoiceSubscriptionOf(invoice: AnyInvoice): { id?: string; metadata?: Stripe.Metadata } {
  const details = invoice.parent?.subscription_details
  const subscription = details?.subscription ?? invoice.subscription
  const metadata =
    details?.metadata ??
    invoice.subscription_details?.metadata ??
    (typeof subscription === 'object' && subscription !== null ? subscription.metadata : undefined) ??
    // Subscription lines carry the subscription's metadata as it was when the invoice was made.
    invoice.lines?.data?.[0]?.metadata ??
    undefined
  return { id: idOf(subscription), metadata }
}

/** The payment intent that paid an invoice: from its payments list (newer versions) or its own field (older). */
function invoicePaymentIdOf(invoice: AnyInvoice): string | undefined {
  const payments = invoice.payments?.data ?? []
  const payment =
    payments.find((candidate) => candidate.status === 'paid') ??
    payments.find((candidate) => candidate.is_default) ??
    payments[0]
  return idOf(payment?.payment?.payment_intent) ?? idOf(invoice.payment_intent)
}

function invoicePaid(invoice: AnyInvoice): LedgerChange[] {
  const subscription = invoiceSubscriptionOf(invoice)
  // A change's invoice has a line per price (the unused time credited, the new price charged): its span is theirs.
  const periods = (invoice.lines?.data ?? []).map((line) => line.period).filter(Boolean)
  const period =
    periods.length > 0
      ? { start: Math.min(...periods.map((p) => p.start)), end: Math.max(...periods.map((p) => p.end)) }
      : undefined
  const changes: LedgerChange[] = [
    {
      type: 'payment.succeeded',
      // Only the invoice a checkout's subscription opens with pays that checkout's order; renewals pay no order.
      orderId: invoice.billing_reason === 'subscription_create' ? orderIdOf(subscription.metadata) : undefined,
      subscriptionId: subscription.id,
      invoiceId: invoice.id,
      paymentId: invoicePaymentIdOf(invoice),
      amount: invoice.amount_paid,
      currency: (invoice.currency ?? '').toUpperCase(),
      periodStart: dateOf(period?.start),
      periodEnd: dateOf(period?.end),
      receiptUrl: invoice.hosted_invoice_url ?? undefined,
      ...(invoice.billing_reason === 'subscription_update' && { reason: 'change' as const }),
    },
  ]
  if (subscription.id) changes.push({ type: 'subscription.changed', subscriptionId: subscription.id })
  return changes
}

function invoiceFailed(invoice: AnyInvoice): LedgerChange[] {
  const subscriptionId = invoiceSubscriptionOf(invoice).id
  const changes: LedgerChange[] = [{ type: 'payment.failed', subscriptionId, invoiceId: invoice.id }]
  if (subscriptionId) changes.push({ type: 'subscription.changed', subscriptionId })
  return changes
}

export function changesOf(event: Stripe.Event): LedgerChange[] {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      // Bank debits and vouchers complete the session before the money arrives; async_payment_* follows.
      const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
      return checkoutCompleted(session, paid)
    }
    case 'checkout.session.async_payment_succeeded':
      return checkoutCompleted(event.data.object, true)
    case 'checkout.session.async_payment_failed': {
      const orderId = orderIdOf(event.data.object.metadata)
      return orderId ? [{ type: 'payment.failed', orderId }] : []
    }
    case 'checkout.session.expired': {
      const session = event.data.object
      const orderId = orderIdOf(session.metadata)
      return orderId ? [{ type: 'checkout.expired', orderId, checkoutId: session.id }] : []
    }
    case 'invoice.paid':
      return invoicePaid(event.data.object)
    case 'invoice.payment_failed':
      return invoiceFailed(event.data.object)
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed':
    case 'customer.subscription.trial_will_end':
      return [{ type: 'subscription.changed', subscriptionId: event.data.object.id }]
    case 'charge.refunded': {
      const charge = event.data.object
      return [
        { type: 'payment.refunded', paymentId: idOf(charge.payment_intent), amountRefunded: charge.amount_refunded },
      ]
    }
    default:
      // Acknowledged and stored, but nothing the ledger keeps.
      return []
  }
}

/** Stripe behind the ledger: hosted Checkout for new subscriptions, webhooks for what happens next. */
/** The SDK, loaded on first use: a server without Stripe keys never loads its 200-odd modules at start-up. */
