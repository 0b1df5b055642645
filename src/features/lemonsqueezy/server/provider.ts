import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type {
  ChangePreview,
  CheckoutRequest,
  PaymentProvider,
  PlanChange,
  ProviderEvent,
  SubscriptionSnapshot,
  SubscriptionUpdate,
} from '#/features/billing/server'
import { isRecord, prorate, providerUnavailable, WebhookSignatureError } from '#/features/billing/server'
import { type Currency, planById } from '#/lib/plans'
import type { Database } from '#/server/db/client'
import { billingOrders, billingSubscriptions } from '#/server/db/schema'
import { AppError } from '#/server/trpc/init'
import {
  changesOf,
  customDataOf,
  type LemonSqueezyResource,
  type LemonSqueezySubscription,
  snapshotOf,
  type VariantPlans,
  variantOf,
} from './events'

export interface LemonSqueezyProviderOptions {
  apiKey: string
  storeId: string
  webhookSecret: string
  /** The store's currency: Lemon Squeezy sells in one. */
  currency: Currency
  /** Which variant sells which plan and period. */
  plans: VariantPlans
}

const sdk = () => import('@lemonsqueezy/lemonsqueezy.js')

interface SdkResult<T> {
  statusCode: number | null
  data: T | null
  error: Error | null
}

/** The SDK answers errors instead of throwing them: unreachable or failing on its side is said so to the buyer. */
function dataOf<T>(result: SdkResult<T>, what: string): T {
  if (!result.error && result.data) return result.data
  if (result.statusCode === null || result.statusCode >= 500 || result.statusCode === 429) {
    throw providerUnavailable('Lemon Squeezy', { error: result.error, status: result.statusCode })
  }
  const cause = (result.error as { cause?: unknown } | null)?.cause
  throw new Error(
    `Lemon Squeezy refused ${what} (${result.statusCode}): ${JSON.stringify(cause ?? result.error?.message)}`,
  )
}

/**
 * Lemon Squeezy behind the ledger, as the merchant of record: its hosted checkout (the plan's variant, at Hatch's
 * price as the custom price, with Team's seats as the quantity) and its signed webhooks. Custom data reaches Hatch only
 * on webhook events, so the organization of a subscription comes from its events, else from the ledger's own row.
 */
export class LemonSqueezyPaymentProvider implements PaymentProvider {
  readonly id = 'lemonsqueezy' as const
  readonly #sdk: ReturnType<typeof sdk>
  /**
   * Subscription id → Hatch's order that started it, from the custom data of the events this instance read. Custom
   * data can be set by anyone on a store's public buy link, so only an order Hatch made names the organization.
   */
  readonly #orders = new Map<string, string>()

  constructor(
    private readonly db: Database,
    private readonly options: LemonSqueezyProviderOptions,
  ) {
    this.#sdk = sdk().then((module) => {
      module.lemonSqueezySetup({ apiKey: options.apiKey })
      return module
    })
  }

  async createCheckout(request: CheckoutRequest) {
    if (request.currency !== this.options.currency) {
      throw new AppError({
        code: 'BAD_REQUEST',
        appCode: 'PAYMENT_CURRENCY_UNSUPPORTED',
        message: `Payments are taken in ${this.options.currency} only.`,
        params: { currency: this.options.currency },
      })
    }
    const variantId = variantOf(this.options.plans, request.planId, request.interval)
    if (!variantId) throw new Error(`LEMONSQUEEZY_VARIANTS names no variant for ${request.planId}-${request.interval}`)
    const perSeat = planById(request.planId).perSeat
    const { createCheckout } = await this.#sdk
    const checkout = dataOf(
      await createCheckout(this.options.storeId, variantId, {
        // Hatch's price per seat (or for the plan), kept for the renewals too.
        customPrice: request.unitAmount,
        checkoutData: {
          email: request.customerEmail,
          custom: { hatch_order_id: request.orderId, hatch_organization_id: request.organizationId },
          ...(perSeat && { variantQuantities: [{ variantId: Number(variantId), quantity: request.seats }] }),
        },
        // Only this plan's variant: the buyer cannot switch to another plan on the hosted page.
        productOptions: { redirectUrl: request.successUrl, enabledVariants: [Number(variantId)] },
        expiresAt: request.expiresAt.toISOString(),
      }),
      'the checkout',
    )
    return { checkoutId: checkout.data.id, url: checkout.data.attributes.url }
  }

  async verifyEvent(rawBody: string, headers: Headers): Promise<ProviderEvent> {
    const signature = headers.get('x-signature') ?? ''
    const expected = createHmac('sha256', this.options.webhookSecret).update(rawBody).digest('hex')
    const given = Buffer.from(signature, 'utf8')
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected, 'utf8'))) {
      throw new WebhookSignatureError('The X-Signature header does not match the body')
    }
    const body: unknown = JSON.parse(rawBody)
    if (!isRecord(body)) throw new WebhookSignatureError('Not a Lemon Squeezy event')
    // Lemon Squeezy retries a delivery with the same body: its hash identifies the event when no webhook id is sent.
    const meta = isRecord(body.meta) ? body.meta : {}
    const id =
      typeof meta.webhook_id === 'string' ? meta.webhook_id : createHash('sha256').update(rawBody).digest('hex')
    return this.readStoredEvent({ ...body, hatch_event_id: id })
  }

  readStoredEvent(payload: unknown): ProviderEvent {
    if (
      !isRecord(payload) ||
      typeof payload.hatch_event_id !== 'string' ||
      !isRecord(payload.meta) ||
      typeof payload.meta.event_name !== 'string' ||
      !isRecord(payload.data) ||
      typeof payload.data.type !== 'string' ||
      typeof payload.data.id !== 'string' ||
      !isRecord(payload.data.attributes)
    ) {
      throw new WebhookSignatureError('Not a Lemon Squeezy event')
    }
    const data = payload.data as unknown as LemonSqueezyResource
    const custom = customDataOf(payload.meta)
    const subscriptionId = data.type === 'subscriptions' ? data.id : data.attributes.subscription_id
    if (custom.orderId && subscriptionId != null) this.#orders.set(String(subscriptionId), custom.orderId)
    const when = new Date(String(data.attributes.updated_at ?? data.attributes.created_at ?? ''))
    return {
      id: payload.hatch_event_id,
      type: payload.meta.event_name,
      created: Number.isNaN(when.getTime()) ? new Date() : when,
      payload,
      changes: changesOf(payload.meta.event_name, data, custom),
    }
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    const { getSubscription } = await this.#sdk
    const result = await getSubscription(subscriptionId)
    if (result.statusCode === 404) return null
    return this.snapshot(subscriptionId, dataOf(result, 'the subscription').data.attributes)
  }

  private async snapshot(id: string, attributes: unknown): Promise<SubscriptionSnapshot | null> {
    const organizationId = (await this.organizationOfRow(id)) ?? (await this.organizationOfOrder(this.#orders.get(id)))
    // A subscription no Hatch checkout started (or none whose events arrived yet) is none of the ledger's business.
    if (!organizationId) return null
    return snapshotOf(id, attributes as LemonSqueezySubscription, {
      organizationId,
      currency: this.options.currency,
      plans: this.options.plans,
    })
  }

  private async organizationOfRow(subscriptionId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ organizationId: billingSubscriptions.organizationId })
      .from(billingSubscriptions)
      .where(
        and(
          eq(billingSubscriptions.provider, this.id),
          eq(billingSubscriptions.providerSubscriptionId, subscriptionId),
        ),
      )
    return row?.organizationId
  }

  private async organizationOfOrder(orderId: string | undefined): Promise<string | undefined> {
    if (!orderId) return undefined
    const [order] = await this.db
      .select({ organizationId: billingOrders.organizationId })
      .from(billingOrders)
      .where(and(eq(billingOrders.id, orderId), eq(billingOrders.provider, this.id)))
    return order?.organizationId
  }

  async invoiceOfPayment(paymentId: string): Promise<string | null> {
    // A subscription invoice is the payment too.
    return paymentId
  }

  async updateSubscription(subscriptionId: string, update: SubscriptionUpdate): Promise<SubscriptionSnapshot> {
    const { updateSubscription } = await this.#sdk
    // "cancelled" ends it at the period's end; setting it back before then resumes it.
    dataOf(await updateSubscription(subscriptionId, { cancelled: update.cancelAtPeriodEnd }), 'the cancellation')
    return this.requiredSnapshot(subscriptionId)
  }

  /** Lemon Squeezy prorates the remaining time and has no preview of a change: Hatch prices it by the same rule. */
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
    const { getSubscription, updateSubscription, updateSubscriptionItem } = await this.#sdk
    const current = await this.requiredSnapshot(subscriptionId)
    if (current.planId !== change.planId || current.interval !== change.interval) {
      const variantId = variantOf(this.options.plans, change.planId, change.interval)
      if (!variantId) throw new Error(`LEMONSQUEEZY_VARIANTS names no variant for ${change.planId}-${change.interval}`)
      dataOf(
        await updateSubscription(subscriptionId, { variantId: Number(variantId), invoiceImmediately: true }),
        'the plan change',
      )
    }
    // Team's seats, or back to one when moving to a plan without seats (else every seat would still be billed).
    const quantity = planById(change.planId).perSeat ? change.seats : 1
    const subscription = dataOf(await getSubscription(subscriptionId), 'the subscription').data.attributes
    const item = subscription.first_subscription_item
    if (item && item.quantity !== quantity) {
      dataOf(await updateSubscriptionItem(item.id, { quantity, invoiceImmediately: true }), 'the seat change')
    }
    // The change's invoice reaches the ledger through its `subscription_payment_success` webhook.
    return { snapshot: await this.requiredSnapshot(subscriptionId), deliveries: [] }
  }

  private async requiredSnapshot(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const snapshot = await this.retrieveSubscription(subscriptionId)
    if (!snapshot) throw new Error(`Lemon Squeezy subscription ${subscriptionId} is not one of Hatch's`)
    return snapshot
  }

  async portalUrl(customerId: string, _returnUrl: string): Promise<string> {
    const { getCustomer } = await this.#sdk
    // A signed link, valid for a day: fetched when the owner asks, never stored.
    const customer = dataOf(await getCustomer(customerId), 'the customer portal').data.attributes
    const url = customer.urls?.customer_portal
    if (!url) throw new Error(`Lemon Squeezy has no customer portal link for customer ${customerId}`)
    return url
  }
}
