import type { Polar } from '@polar-sh/sdk/2026-04'
import type {
  ChangePreview,
  CheckoutRequest,
  PaymentProvider,
  PlanChange,
  ProviderEvent,
  SubscriptionSnapshot,
  SubscriptionUpdate,
} from '#/features/billing/server'
import {
  ChargeDeclinedError,
  isRecord,
  prorate,
  providerUnavailable,
  WebhookSignatureError,
} from '#/features/billing/server'
import { type BillingInterval, type Currency, type PaidPlanId, planById } from '#/lib/plans'
import type { AppError } from '#/server/trpc/init'
import { changesOf, type PolarMetadata, type PolarSubscription, polarIntervals, snapshotOf } from './events'

export interface PolarProviderOptions {
  accessToken: string
  webhookSecret: string
  /** Polar's sandbox (test payments) or production. */
  environment: 'sandbox' | 'production'
  /** Another API origin, such as a fake server's `http://127.0.0.1:12345`; only tests set it. */
  apiUrl?: string
  /** How long one API call may take, in milliseconds; tests set a short one. */
  timeoutMs?: number
}

/** Ten seconds leave room for a slow network without holding a buyer for long (the SDK's default is five). */
export const polarTimeoutMs = 10_000

/** The metadata Hatch puts on every checkout and subscription, to find its order and organization again. */
interface HatchMetadata extends PolarMetadata {
  hatch_order_id: string
  hatch_organization_id: string
  hatch_plan: PaidPlanId
  hatch_interval: BillingInterval
}

const polarSdk = () => import('@polar-sh/sdk/2026-04')

/** Polar unreachable, too slow or failing on its side: the buyer is told so, in their language, and may retry. */
function unreachableProviderError(error: unknown): AppError | undefined {
  const name = (error as { name?: unknown } | null)?.name
  if (name !== 'PolarNetworkError' && name !== 'PolarServerError' && name !== 'PolarRateLimitError') return undefined
  return providerUnavailable('Polar', error)
}

function statusCodeOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode
  return typeof status === 'number' ? status : undefined
}

/**
 * Polar behind the ledger: its hosted checkout for new subscriptions, its webhooks (Standard Webhooks signatures) for
 * what happens next. Polar is the merchant of record: it charges the buyer's sales tax or VAT and pays out the rest.
 * Polar sells products with their prices, so Hatch keeps one product per plan, interval, currency and price, made on
 * first use and found again by its metadata.
 */
export class PolarPaymentProvider implements PaymentProvider {
  readonly id = 'polar' as const
  readonly #polar: Promise<Polar>
  private readonly webhookSecret: string

  constructor(options: PolarProviderOptions) {
    this.#polar = polarSdk().then(({ createPolar }) =>
      createPolar({
        accessToken: options.accessToken,
        environment: options.environment,
        ...(options.apiUrl && { baseUrl: options.apiUrl.replace(/\/+$/, '') }),
        timeout: (options.timeoutMs ?? polarTimeoutMs) / 1000,
      }),
    )
    this.webhookSecret = options.webhookSecret
  }

  async createCheckout(request: CheckoutRequest) {
    const metadata: HatchMetadata = {
      hatch_order_id: request.orderId,
      hatch_organization_id: request.organizationId,
      hatch_plan: request.planId,
      hatch_interval: request.interval,
    }
    const perSeat = planById(request.planId).perSeat
    try {
      const productId = await this.planProduct(request.planId, request.planName, request.interval, request.currency, {
        unitAmount: request.unitAmount,
        perSeat,
      })
      const checkout = await (await this.#polar).checkouts.create({
        products: [productId],
        // Pinned: the seats were checked against the members and invitations here.
        ...(perSeat && { seats: request.seats, min_seats: request.seats, max_seats: request.seats }),
        currency: request.currency.toLowerCase() as 'usd',
        // The organization is Polar's customer: its external id finds the same customer on every checkout.
        external_customer_id: request.organizationId,
        customer_email: request.customerEmail,
        metadata,
        success_url: request.successUrl,
        return_url: request.cancelUrl.replace('{outcome}', 'canceled'),
        locale: request.locale === 'zh' ? 'zh' : 'en',
      })
      return { checkoutId: checkout.id, url: checkout.url }
    } catch (error) {
      throw unreachableProviderError(error) ?? error
    }
  }

  async verifyEvent(rawBody: string, headers: Headers): Promise<ProviderEvent> {
    const { webhooks } = await polarSdk()
    const webhookId = headers.get('webhook-id')
    if (!webhookId) throw new WebhookSignatureError('No webhook-id header')
    try {
      await webhooks.validateEvent(rawBody, Object.fromEntries(headers.entries()), this.webhookSecret)
    } catch (error) {
      // A genuine event of a type this SDK does not know is acknowledged and kept, with nothing to apply.
      if (!(error instanceof webhooks.PolarWebhookUnknownTypeError)) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'The signature does not match', {
          cause: error,
        })
      }
    }
    const body: unknown = JSON.parse(rawBody)
    // Polar's envelope has no id: the delivery's webhook-id, the same on every retry, is the event's.
    return this.readStoredEvent(isRecord(body) ? { ...body, webhook_id: webhookId } : body)
  }

  readStoredEvent(payload: unknown): ProviderEvent {
    if (
      !isRecord(payload) ||
      typeof payload.webhook_id !== 'string' ||
      typeof payload.type !== 'string' ||
      typeof payload.timestamp !== 'string' ||
      !isRecord(payload.data)
    ) {
      throw new WebhookSignatureError('Not a Polar event')
    }
    const created = new Date(payload.timestamp)
    return {
      id: payload.webhook_id,
      type: payload.type,
      created: Number.isNaN(created.getTime()) ? new Date() : created,
      payload,
      changes: changesOf(payload.type, payload.data),
    }
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    let subscription: PolarSubscription
    try {
      subscription = await (await this.#polar).subscriptions.get(subscriptionId)
    } catch (error) {
      if (statusCodeOf(error) === 404) return null
      throw error
    }
    // A subscription another integration of the same Polar organization started is none of the ledger's business.
    if (!subscription.metadata?.hatch_organization_id && !subscription.product?.metadata?.hatch_plan) return null
    return snapshotOf(subscription)
  }

  async invoiceOfPayment(paymentId: string): Promise<string | null> {
    // A Polar order is the invoice and the payment at once.
    return paymentId
  }

  async receiptUrl(orderId: string): Promise<string | null> {
    // Polar's receipt PDF is behind a presigned link that soon expires: asked for at each opening, never saved.
    try {
      const receipt = await (await this.#polar).orders.receipt(orderId)
      return receipt.url || null
    } catch (error) {
      if (statusCodeOf(error) === 404) return null
      throw unreachableProviderError(error) ?? error
    }
  }

  async updateSubscription(subscriptionId: string, update: SubscriptionUpdate): Promise<SubscriptionSnapshot> {
    const subscription = await (await this.#polar).subscriptions.update(subscriptionId, {
      cancel_at_period_end: update.cancelAtPeriodEnd,
    })
    return snapshotOf(subscription)
  }

  /**
   * Polar has no preview of a change's invoice: it prorates to the second as Stripe does (`proration_behavior:
   * invoice`), so the same arithmetic as the local provider's gives what the change will charge.
   */
  async previewChange(subscriptionId: string, change: PlanChange, prorationDate: Date): Promise<ChangePreview> {
    const current = await this.requiredSnapshot(subscriptionId)
    return prorate(
      {
        amount: current.amount,
        interval: current.interval,
        currency: current.currency,
        periodStart: current.currentPeriodStart ?? prorationDate,
        periodEnd: current.currentPeriodEnd ?? prorationDate,
        creditBalance: 0,
      },
      { amount: change.unitAmount * change.seats, interval: change.interval },
      prorationDate,
    )
  }

  async changePlan(subscriptionId: string, change: PlanChange, _prorationDate: Date) {
    const polar = await this.#polar
    const subscription = await polar.subscriptions.get(subscriptionId)
    const current = snapshotOf(subscription)
    const perSeat = planById(change.planId).perSeat
    try {
      if (current.planId !== change.planId || current.interval !== change.interval) {
        const productId = await this.planProduct(change.planId, change.planName, change.interval, current.currency, {
          unitAmount: change.unitAmount,
          perSeat,
        })
        await polar.subscriptions.update(subscriptionId, {
          product_id: productId,
          // Invoiced and charged now, as previewed.
          proration_behavior: 'invoice',
          // The whole metadata, in case Polar replaces rather than merges it: the order and organization stay.
          metadata: { ...subscription.metadata, hatch_plan: change.planId, hatch_interval: change.interval },
        })
      }
      const seats = perSeat ? change.seats : 1
      const afterProduct = await this.requiredSnapshot(subscriptionId)
      if (perSeat && afterProduct.seats !== seats) {
        await polar.subscriptions.update(subscriptionId, { seats, proration_behavior: 'invoice' })
      }
    } catch (error) {
      // Polar answers 402 when the immediate charge is declined, and leaves the subscription as it was.
      if (statusCodeOf(error) === 402) throw new ChargeDeclinedError((error as Error).message)
      throw error
    }
    // The change's order reaches the ledger through its `order.paid` webhook.
    return { snapshot: await this.requiredSnapshot(subscriptionId), deliveries: [] }
  }

  /** Hatch's product for a plan at a price, found by its metadata, or made the first time that price is sold. */
  private async planProduct(
    planId: PaidPlanId,
    planName: string,
    interval: BillingInterval,
    currency: Currency,
    price: { unitAmount: number; perSeat: boolean },
  ): Promise<string> {
    const polar = await this.#polar
    const key = `${planId}-${interval}-${currency.toLowerCase()}-${price.unitAmount}`
    const found = await polar.products.list({ metadata: { hatch_price: key }, is_archived: false, limit: 1 })
    const existing = found.items[0]
    if (existing) return existing.id
    const priceCurrency = currency.toLowerCase() as 'usd'
    const product = await polar.products.create({
      name: planName,
      recurring_interval: polarIntervals[interval],
      prices: [
        price.perSeat
          ? {
              amount_type: 'seat_based',
              price_currency: priceCurrency,
              seat_tiers: { seat_tier_type: 'volume', tiers: [{ min_seats: 1, price_per_seat: price.unitAmount }] },
            }
          : { amount_type: 'fixed', price_currency: priceCurrency, price_amount: price.unitAmount },
      ],
      metadata: { hatch_plan: planId, hatch_interval: interval, hatch_price: key },
    })
    return product.id
  }

  private async requiredSnapshot(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const snapshot = await this.retrieveSubscription(subscriptionId)
    if (!snapshot) throw new Error(`Polar subscription ${subscriptionId} disappeared during an update`)
    return snapshot
  }

  async portalUrl(customerId: string, returnUrl: string): Promise<string> {
    const session = await (await this.#polar).customerSessions.create({
      customer_id: customerId,
      return_url: returnUrl,
    })
    return session.customer_portal_url
  }
}
