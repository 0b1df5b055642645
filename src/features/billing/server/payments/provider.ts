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
  | {
      type: 'checkout.expired'
      orderId: string
      checkoutId: string
      /** Canceled by the buyer, or out of time unpaid (the default). */
      reason?: 'canceled' | 'expired'
    }
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
      /** Why the invoice was made when it is not a checkout's or a renewal's: a plan or seat change. */
      reason?: 'change'
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
  /** When the checkout stops taking payment if the buyer has not finished it. */
  expiresAt: Date
}

export interface SubscriptionUpdate {
  cancelAtPeriodEnd: boolean
}

/** What a subscription becomes in a plan or seat change, priced. */
export interface PlanChange {
  planId: PaidPlanId
  interval: BillingInterval
  /** 1 for a plan without seats. */
  seats: number
  /** Per seat (or for the plan), in minor units. */
  unitAmount: number
  planName: string
}

/**
 * What a plan or seat change costs, as the provider prorates it (Stripe's way, which the local provider follows): the
 * unused time of the current price is credited; the new price is charged for the rest of the period, or for a whole
 * new period starting now when the interval changes; the difference is invoiced at once, and a credit larger than
 * the charge stays with the customer for later invoices.
 */
export interface ChangePreview {
  currency: Currency
  /** The current price's unused time, credited (minor units, at least 0). */
  credit: number
  /** The new price for the time it covers now (minor units). */
  charge: number
  /** Invoiced and paid now: charge less credit, never below 0. */
  amountDue: number
  /** Credit left after this invoice, kept by the provider for the next ones. */
  creditLeft: number
  /** The price per period after the change (all seats). */
  newAmount: number
  /** The period after the change; its end is the next renewal. */
  periodStart: Date
  periodEnd: Date
  /** The instant the amounts are computed for: the change is made "as of" it, so the amounts hold. */
  prorationDate: Date
}

/** Raised for a webhook whose signature does not check out: answered 400, nothing stored. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError'
}

/**
 * Raised when a plan change's immediate charge is declined: the provider made no change (Stripe's
 * `error_if_incomplete`), so the subscription stays as it was, active, rather than falling past due.
 */
export class ChargeDeclinedError extends Error {
  override name = 'ChargeDeclinedError'
}

/**
 * One payment provider behind the ledger: `local` (built in), and each one an installed app brings (Stripe, Polar,
 * Lemon Squeezy and Paddle are apps; payment-provider.ts).
 */
export interface PaymentProvider {
  /** `local`, or the id its app gives it (PaymentProviderPlugin). */
  readonly id: string
  /**
   * The provider prorates a change at the moment it is made and cannot be told another instant (Paddle): a
   * confirmation may then charge a little less than the preview showed, as time passed in between.
   */
  readonly prorationAtRequestTime?: boolean
  createCheckout(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }>
  /** Checks the signature of a webhook delivery and reads it; throws WebhookSignatureError when it is not genuine. */
  verifyEvent(rawBody: string, headers: Headers): Promise<ProviderEvent>
  /** Reads an event stored earlier (already verified), for replays. */
  readStoredEvent(payload: unknown): ProviderEvent
  /** The subscription as the provider has it now; null when the provider does not know it. */
  retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null>
  /** Cancels at the end of the period, or resumes before it ends. */
  updateSubscription(subscriptionId: string, update: SubscriptionUpdate): Promise<SubscriptionSnapshot>
  /** What `changePlan` with the same arguments would invoice, without changing anything. */
  previewChange(subscriptionId: string, change: PlanChange, prorationDate: Date): Promise<ChangePreview>
  /**
   * Changes plan, interval or seats and invoices the proration at once (paid with the customer's saved method). The
   * invoice reaches the ledger as a `payment.succeeded` with `reason: 'change'`: from Stripe as a webhook; from the
   * local provider as the signed deliveries it answers, for the caller to deliver. A declined charge changes nothing
   * and raises `ChargeDeclinedError`.
   */
  changePlan(
    subscriptionId: string,
    change: PlanChange,
    prorationDate: Date,
  ): Promise<{ snapshot: SubscriptionSnapshot; deliveries: { body: string; headers: Headers }[] }>
  /**
   * The invoice a payment paid: null when it paid none (a charge made outside Hatch's subscriptions). Lets a refund,
   * which names only the payment, find its order.
   */
  invoiceOfPayment?(paymentId: string): Promise<string | null>
  /**
   * Stops an unfinished checkout from taking payment (one a subscription replaced, or past Hatch's time for it).
   * True when it is closed, or already was; false when it can no longer be stopped (it was paid meanwhile). The
   * provider's own event then closes the order. Absent where the provider has no way to close one (Polar, Lemon
   * Squeezy): their checkouts end at the time given when they were made.
   */
  closeCheckout?(checkoutId: string): Promise<boolean>
  /**
   * The provider keeps a checkout open past the expiry Hatch gave it (Paddle's transactions never expire), so Hatch
   * closes its overdue checkouts every hour. Others end their own on time, and are not asked.
   */
  readonly checkoutsOutliveTheirTime?: boolean
  /**
   * A link to the provider's own receipt or invoice for a paid invoice, fetched when the customer asks for it: the
   * providers whose links expire within hours (Paddle, Polar) have nothing worth storing. Null when it has none.
   */
  receiptUrl?(invoiceId: string): Promise<string | null>
  /** The provider's own page for payment methods, invoices and cancellation, if it has one. */
  portalUrl?(customerId: string, returnUrl: string): Promise<string>
}
