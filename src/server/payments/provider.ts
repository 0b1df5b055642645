import type { BillingInterval, Currency, PaidPlanId } from '#/lib/plans'

/**
 * What a provider event means to the ledger, whatever the provider calls it. One provider event may carry several
 * (Stripe's `checkout.session.completed` completes the checkout and names the subscription it started).
 */
export type LedgerChange =
  | {
      type: 'checkout.completed'
      orderId: string
      checkoutId: string
      /** False for payment methods that settle later (the order stays "processing" until a payment event). */
      paid: boolean
      subscriptionId?: string
      customerId?: string
    }
  | { type: 'checkout.expired'; orderId: string; checkoutId: string }
  | {
      type: 'payment.succeeded'
      /** The checkout's order, when this is its first payment. */
      orderId?: string
      subscriptionId?: string
      invoiceId?: string
      paymentId?: string
      amount: number
      currency: string
      periodStart?: Date
      periodEnd?: Date
      receiptUrl?: string
    }
  | { type: 'payment.failed'; orderId?: string; subscriptionId?: string; invoiceId?: string }
  | {
      type: 'payment.refunded'
      paymentId?: string
      invoiceId?: string
      orderId?: string
      /** Everything refunded so far on that payment (providers report the running total). */
      amountRefunded: number
    }
  | { type: 'subscription.changed'; subscriptionId: string }

/** A verified provider event: its id (stored once), when the provider made it, its raw payload, and what it means. */
export interface ProviderEvent {
  id: string
  type: string
  created: Date
  payload: unknown
  changes: LedgerChange[]
}

export type SubscriptionStatus = 'incomplete' | 'trialing' | 'active' | 'past_due' | 'canceled'

/** A subscription as its provider describes it now. */
export interface SubscriptionSnapshot {
  id: string
  customerId: string | null
  organizationId: string
  planId: PaidPlanId
  interval: BillingInterval
  seats: number
  currency: Currency
  amount: number
  status: SubscriptionStatus
  cancelAtPeriodEnd: boolean
  currentPeriodStart: Date | null
  currentPeriodEnd: Date | null
  canceledAt: Date | null
}

export interface CheckoutRequest {
  orderId: string
  organizationId: string
  organizationName: string
  userId: string
  customerEmail: string
  /** The organization's customer at the provider, if an earlier checkout made one. */
  customerId: string | null
  planId: PaidPlanId
  planName: string
  interval: BillingInterval
  currency: Currency
  seats: number
  /** Per period, in minor units (all seats). */
  amount: number
  /** Per seat (or for the plan), in minor units. */
  unitAmount: number
  locale: 'en' | 'zh'
  successUrl: string
  cancelUrl: string
}

export interface SubscriptionUpdate {
  cancelAtPeriodEnd?: boolean
  seats?: number
  plan?: { planId: PaidPlanId; interval: BillingInterval; unitAmount: number; planName: string }
}

/** Raised for a webhook whose signature does not check out: answered 400, nothing stored. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError'
}

/** One payment provider behind the ledger. `local` (built in) and `stripe` implement it. */
export interface PaymentProvider {
  readonly id: 'local' | 'stripe'
  createCheckout(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }>
  /** Checks the signature of a webhook delivery and reads it; throws WebhookSignatureError when it is not genuine. */
  verifyEvent(rawBody: string, headers: Headers): Promise<ProviderEvent>
  /** Reads an event stored earlier (already verified), for replays. */
  readStoredEvent(payload: unknown): ProviderEvent
  /** The subscription as the provider has it now; null when the provider does not know it. */
  retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null>
  updateSubscription(subscriptionId: string, update: SubscriptionUpdate): Promise<SubscriptionSnapshot>
  /**
   * The invoice a payment paid: null when it paid none (a charge made outside Hatch's subscriptions). Lets a refund,
   * which names only the payment, find its order.
   */
  invoiceOfPayment?(paymentId: string): Promise<string | null>
  /** The provider's own page for payment methods, invoices and cancellation, if it has one. */
  portalUrl?(customerId: string, returnUrl: string): Promise<string>
}
