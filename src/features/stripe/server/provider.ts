import type Stripe from 'stripe'
import type {
  ChangePreview,
  CheckoutRequest,
  PaymentProvider,
  PlanChange,
  ProviderEvent,
  SubscriptionSnapshot,
  SubscriptionUpdate,
} from '#/features/billing/server'
import { ChargeDeclinedError, isRecord, providerUnavailable, WebhookSignatureError } from '#/features/billing/server'
import { type BillingInterval, type PaidPlanId, planById } from '#/lib/plans'
import type { AppError } from '#/server/trpc/init'
import { changesOf, idOf, snapshotOf, stripeIntervals } from './events'

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
  return providerUnavailable('Stripe', error)
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

  async receiptUrl(invoiceId: string): Promise<string | null> {
    // Asked for when the customer opens the receipt: the link stored from the event may have expired since.
    const invoice = await (await this.#stripe).invoices.retrieve(invoiceId).catch((error: unknown) => {
      throw unreachableProviderError(error) ?? error
    })
    return invoice.hosted_invoice_url ?? null
  }

  async closeCheckout(sessionId: string): Promise<boolean> {
    const stripe = await this.#stripe
    try {
      await stripe.checkout.sessions.expire(sessionId)
      return true
    } catch (error) {
      const unreachable = unreachableProviderError(error)
      if (unreachable) throw unreachable
      // Stripe expires only open sessions: one already expired is closed as asked; a completed one was paid first.
      const session = await stripe.checkout.sessions.retrieve(sessionId).catch((retrieveError: unknown) => {
        throw unreachableProviderError(retrieveError) ?? retrieveError
      })
      if (session.status === 'expired') return true
      if (session.status === 'complete') return false
      throw error
    }
  }

  async portalUrl(customerId: string, returnUrl: string): Promise<string> {
    const session = await (await this.#stripe).billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
    })
    return session.url
  }
}
