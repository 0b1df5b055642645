import type Stripe from 'stripe'
import { type BillingInterval, type Currency, currencies, type PaidPlanId, paidPlanIds, planById } from '#/lib/plans'
import { log } from '../log'
import { AppError } from '../trpc/init'
import type {
  ChangePreview,
  CheckoutRequest,
  LedgerChange,
  PaymentProvider,
  PlanChange,
  ProviderEvent,
  SubscriptionSnapshot,
  SubscriptionStatus,
  SubscriptionUpdate,
} from './provider'
import { ChargeDeclinedError, WebhookSignatureError } from './provider'

export interface StripeProviderOptions {
  secretKey: string
  webhookSecret: string
  /** Another Stripe API origin, such as a fake server's `http://127.0.0.1:12345`; only tests set it. */
  apiUrl?: string
  /** Checkout's `payment_method_types`; empty lets Stripe choose from the account's settings. */
  paymentMethods: string[]
  /** How long one API call may take; tests set a short one. */
  timeoutMs?: number
}

/** Stripe answers in well under a second; ten leave room for a slow network without holding a buyer for long. */
export const stripeTimeoutMs = 10_000

/** Stripe unreachable, too slow or failing on its side: the buyer is told so, in their language, and may retry. */
function unreachableProviderError(error: unknown): AppError | undefined {
  const type = (error as { type?: unknown } | null)?.type
  if (type !== 'StripeConnectionError' && type !== 'StripeAPIError') return undefined
  log().error({ err: error }, 'the Stripe API did not answer')
  return new AppError({
    code: 'BAD_GATEWAY',
    appCode: 'PAYMENT_PROVIDER_UNAVAILABLE',
    message: 'The payment provider is not answering; nothing was charged. Please try again in a moment.',
  })
}

/**
 * The API version this code reads objects in. Pinned so that an account's default version, changed in the Dashboard,
 * cannot reshape the objects under it; the events' shape follows the webhook endpoint's version instead, which is
 * why the readers below also accept older shapes.
 */
const apiVersion = '2026-10-28.endive' satisfies Stripe.LatestApiVersion

/** The metadata Hatch puts on every checkout session and subscription, to find its order and organization again. */
interface HatchMetadata {
  hatch_order_id: string
  hatch_organization_id: string
  hatch_plan: PaidPlanId
  hatch_interval: BillingInterval
}

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

const stripeIntervals = { monthly: 'month', yearly: 'year' } as const satisfies Record<BillingInterval, string>

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The id of an expandable field, whether Stripe sent the id or the whole object. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value || undefined
  if (isRecord(value) && typeof value.id === 'string') return value.id
  return undefined
}

function dateOf(seconds: number | null | undefined): Date | undefined {
  return typeof seconds === 'number' ? new Date(seconds * 1000) : undefined
}

function isPaidPlanId(value: unknown): value is PaidPlanId {
  return typeof value === 'string' && (paidPlanIds as readonly string[]).includes(value)
}

function isCurrency(value: string): value is Currency {
  return (currencies as readonly string[]).includes(value)
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

function snapshotOf(subscription: AnySubscription): SubscriptionSnapshot {
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

function changesOf(event: Stripe.Event): LedgerChange[] {
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
const stripeSdk = () => import('stripe').then((module) => module.default)

export class StripePaymentProvider implements PaymentProvider {
  readonly id = 'stripe' as const
  readonly #stripe: Promise<Stripe>
  private readonly webhookSecret: string
  private readonly paymentMethods: string[]

  constructor(options: StripeProviderOptions) {
    const api = options.apiUrl ? new URL(options.apiUrl) : undefined
    const protocol = api?.protocol === 'http:' ? 'http' : 'https'
    this.#stripe = stripeSdk().then(
      (StripeClient) =>
        new StripeClient(options.secretKey, {
          apiVersion,
          typescript: true,
          // The SDK waits 80 s by default and retries: a buyer would stare at a spinner for minutes (issue 26).
          timeout: options.timeoutMs ?? stripeTimeoutMs,
          maxNetworkRetries: 0,
          // Through fetch rather than node:http, so its calls are traced like every other outgoing call (undici).
          httpClient: StripeClient.createFetchHttpClient(),
          ...(api && {
            host: api.hostname,
            port: api.port || (protocol === 'http' ? 80 : 443),
            protocol,
          }),
        }),
    )
    this.webhookSecret = options.webhookSecret
    this.paymentMethods = options.paymentMethods
  }

  async createCheckout(request: CheckoutRequest) {
    const metadata: HatchMetadata = {
      hatch_order_id: request.orderId,
      hatch_organization_id: request.organizationId,
      hatch_plan: request.planId,
      hatch_interval: request.interval,
    }
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'subscription',
      line_items: [
        {
          quantity: planById(request.planId).perSeat ? request.seats : 1,
          price_data: {
            currency: request.currency.toLowerCase(),
            unit_amount: request.unitAmount,
            recurring: { interval: stripeIntervals[request.interval] },
            product_data: { name: request.planName },
          },
        },
      ],
      ...(this.paymentMethods.length > 0 && { payment_method_types: this.paymentMethods }),
      // Stripe refuses both at once; a returning organization pays as the customer it already is.
      ...(request.customerId ? { customer: request.customerId } : { customer_email: request.customerEmail }),
      client_reference_id: request.organizationId,
      metadata: { ...metadata },
      subscription_data: { metadata: { ...metadata } },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl.replace('{outcome}', 'canceled'),
      // Stripe's own expiry (between 30 minutes and 24 hours), so that the order and the session end together.
      expires_at: Math.floor(request.expiresAt.getTime() / 1000),
      locale: request.locale === 'zh' ? 'zh' : 'en',
    }
    // One session per order, even when the buyer double-clicks or the request is retried.
    const session = await (await this.#stripe).checkout.sessions
      .create(params, { idempotencyKey: `checkout-${request.orderId}` })
      .catch((error: unknown) => {
        throw unreachableProviderError(error) ?? error
      })
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`)
    return { checkoutId: session.id, url: session.url }
  }

  async verifyEvent(rawBody: string, headers: Headers): Promise<ProviderEvent> {
    const signature = headers.get('stripe-signature')
    if (!signature) throw new WebhookSignatureError('No Stripe-Signature header')
    let event: Stripe.Event
    try {
      event = await (await this.#stripe).webhooks.constructEventAsync(rawBody, signature, this.webhookSecret)
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : 'The signature does not match', {
        cause: error,
      })
    }
    return this.readStoredEvent(event)
  }

  readStoredEvent(payload: unknown): ProviderEvent {
    if (
      !isRecord(payload) ||
      typeof payload.id !== 'string' ||
      typeof payload.type !== 'string' ||
      typeof payload.created !== 'number' ||
      !isRecord(payload.data) ||
      !isRecord(payload.data.object)
    ) {
      throw new WebhookSignatureError('Not a Stripe event')
    }
    // The checks above are what every Stripe event has; the object's own fields are read defensively below.
    const event = payload as unknown as Stripe.Event
    return {
      id: event.id,
      type: event.type,
      created: new Date(event.created * 1000),
      payload,
      changes: changesOf(event),
    }
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    let subscription: Stripe.Subscription
    try {
      subscription = await (await this.#stripe).subscriptions.retrieve(subscriptionId)
    } catch (error) {
      if (error instanceof (await stripeSdk()).errors.StripeError && error.code === 'resource_missing') return null
      throw error
    }
    // A subscription another integration of the same Stripe account started is none of the ledger's business.
    if (!subscription.metadata?.hatch_organization_id) return null
    return snapshotOf(subscription)
  }

  async invoiceOfPayment(paymentId: string): Promise<string | null> {
    // Webhook invoices leave out their payments (an includable field), so the link is looked up from the payment.
    const payments = await (await this.#stripe).invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentId },
      limit: 1,
    })
    return idOf(payments.data[0]?.invoice) ?? null
  }

  async updateSubscription(subscriptionId: string, update: SubscriptionUpdate): Promise<SubscriptionSnapshot> {
    await (await this.#stripe).subscriptions.update(subscriptionId, { cancel_at_period_end: update.cancelAtPeriodEnd })
    return this.requiredSnapshot(subscriptionId)
  }

  async previewChange(subscriptionId: string, change: PlanChange, prorationDate: Date): Promise<ChangePreview> {
    const { subscription, item } = await this.changedItem(subscriptionId, change)
    const current = snapshotOf(subscription)
    const invoice = await (await this.#stripe).invoices.createPreview({
      subscription: subscriptionId,
      subscription_details: {
        items: [item],
        proration_behavior: 'always_invoice',
        proration_date: Math.floor(prorationDate.getTime() / 1000),
      },
    })
    const lines = invoice.lines.data
    const credit = -lines.reduce((sum, line) => sum + Math.min(0, line.amount), 0)
    const charge = lines.reduce((sum, line) => sum + Math.max(0, line.amount), 0)
    // The customer's balance is negative while it holds credit; what the invoice does not use stays there.
    const owed = invoice.total + (invoice.starting_balance ?? 0)
    const newPeriod = change.interval !== current.interval
    const periodEnd = Math.max(...lines.map((line) => line.period.end))
    return {
      currency: current.currency,
      credit,
      charge,
      amountDue: invoice.amount_due,
      creditLeft: Math.max(0, -owed),
      newAmount: change.unitAmount * change.seats,
      periodStart: newPeriod ? prorationDate : (current.currentPeriodStart ?? prorationDate),
      periodEnd: Number.isFinite(periodEnd) ? new Date(periodEnd * 1000) : (current.currentPeriodEnd ?? prorationDate),
      prorationDate,
    }
  }

  async changePlan(subscriptionId: string, change: PlanChange, prorationDate: Date) {
    const { item } = await this.changedItem(subscriptionId, change)
    try {
      await (await this.#stripe).subscriptions.update(subscriptionId, {
        items: [item],
        // Invoiced and charged now, as previewed: the same instant gives the same proration.
        proration_behavior: 'always_invoice',
        proration_date: Math.floor(prorationDate.getTime() / 1000),
        // A declined charge changes nothing (402), rather than Stripe's default: the new plan applied and the
        // subscription past due until someone pays.
        payment_behavior: 'error_if_incomplete',
        // Stripe merges metadata keys, so the order and organization stay as the checkout set them.
        metadata: { hatch_plan: change.planId, hatch_interval: change.interval },
      })
    } catch (error) {
      if ((error as { type?: unknown }).type === 'StripeCardError') {
        throw new ChargeDeclinedError((error as Error).message)
      }
      throw error
    }
    // The invoice reaches the ledger through its `invoice.paid` webhook.
    return { snapshot: await this.requiredSnapshot(subscriptionId), deliveries: [] }
  }

  /** The subscription's item as `change` makes it: the plan's product, a price for the plan, the seats. */
  private async changedItem(subscriptionId: string, change: PlanChange) {
    const stripe = await this.#stripe
    const subscription = await stripe.subscriptions.retrieve(subscriptionId)
    const currentItem = subscription.items.data[0]
    if (!currentItem) throw new Error(`Stripe subscription ${subscriptionId} has no items`)
    const current = snapshotOf(subscription)
    const item: Stripe.SubscriptionUpdateParams.Item = {
      id: currentItem.id,
      quantity: planById(change.planId).perSeat ? change.seats : 1,
      // Subscription items take `price_data` with a product id only (no inline `product_data` as Checkout has).
      price_data: {
        currency: current.currency.toLowerCase(),
        product: await this.planProduct(change),
        unit_amount: change.unitAmount,
        recurring: { interval: stripeIntervals[change.interval] },
      },
    }
    return { subscription, item }
  }

  /** One Stripe product per plan, under an id of Hatch's, made the first time a plan is changed to. */
  private async planProduct(change: PlanChange): Promise<string> {
    const stripe = await this.#stripe
    const id = `hatch_plan_${change.planId}`
    try {
      return (await stripe.products.retrieve(id)).id
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error
    }
    try {
      return (await stripe.products.create({ id, name: change.planName, metadata: { hatch_plan: change.planId } })).id
    } catch (error) {
      // Made meanwhile by another request.
      if ((error as { code?: string }).code === 'resource_already_exists') return id
      throw error
    }
  }

  private async requiredSnapshot(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const snapshot = await this.retrieveSubscription(subscriptionId)
    if (!snapshot) throw new Error(`Stripe subscription ${subscriptionId} disappeared during an update`)
    return snapshot
  }

  async portalUrl(customerId: string, returnUrl: string): Promise<string> {
    const session = await (await this.#stripe).billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
    })
    return session.url
  }
}
