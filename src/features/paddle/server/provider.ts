import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Environment, Paddle } from '@paddle/paddle-node-sdk'
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
import { type BillingInterval, type Currency, planById } from '#/lib/plans'
import type { AppError } from '#/server/trpc/init'
import {
  changesOf,
  type HatchPriceData,
  hatchDataOf,
  hatchItemOf,
  type PaddleSubscription,
  paddleIntervals,
  snapshotOf,
  soldByHatch,
} from './events'

export interface PaddleProviderOptions {
  apiKey: string
  webhookSecret: string
  /** Paddle's sandbox (test cards, no money moves) or production. */
  environment: 'sandbox' | 'production'
  /** Another API origin, such as a fake server's `http://127.0.0.1:12345`; only tests set it. */
  apiUrl?: string
  /** The app's address: Paddle.js opens the checkout on the app's own checkout page there. */
  appUrl: string
  /** How long one API call may take, in milliseconds; tests set a short one. */
  timeoutMs?: number
}

/** Ten seconds leave room for a slow network without holding a buyer for long (the SDK itself never gives up). */
export const paddleTimeoutMs = 10_000

/** Paddle's documented tolerance between a webhook's signing and its check, against replays of old deliveries. */
export const paddleSignatureToleranceSeconds = 5

/** The app's page that loads Paddle.js and opens the checkout of the transaction named by `?_ptxn=`. */
export const paddleCheckoutPath = 'paddle-checkout'

const paddleSdk = () => import('@paddle/paddle-node-sdk')

class PaddleTimeoutError extends Error {
  override name = 'PaddleTimeoutError'
}

/**
 * Paddle unreachable, too slow, answering something other than JSON, or failing on its side: the buyer is told so,
 * in their language, and may retry.
 */
function unreachableProviderError(error: unknown): AppError | undefined {
  const type = (error as { type?: unknown } | null)?.type
  const retryAfter = (error as { retryAfter?: unknown } | null)?.retryAfter
  const unreachable =
    error instanceof PaddleTimeoutError ||
    error instanceof TypeError ||
    error instanceof SyntaxError ||
    type === 'api_error' ||
    typeof retryAfter === 'number'
  if (!unreachable) return undefined
  return providerUnavailable('Paddle', error)
}

function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** Reads `ts=…;h1=…[;h1=…]`: Paddle sends one h1 per secret while a secret is being rotated. */
function signatureParts(header: string): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined
  const signatures: string[] = []
  for (const part of header.split(';')) {
    const [key, value] = part.split('=', 2).map((piece) => piece.trim())
    if (key === 'ts' && value && /^\d+$/.test(value)) timestamp = Number(value)
    if (key === 'h1' && value) signatures.push(value)
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures }
}

/**
 * Paddle Billing behind the ledger, as the merchant of record: a transaction for each checkout, paid in Paddle.js's
 * overlay on the app's own checkout page, and Paddle's signed webhooks for what happens next. Hatch's prices are
 * non-catalog prices made for each sale, so nothing needs setting up in Paddle's catalog.
 */
export class PaddlePaymentProvider implements PaymentProvider {
  readonly id = 'paddle' as const
  readonly checkoutsOutliveTheirTime = true
  readonly prorationAtRequestTime = true
  readonly #paddle: Promise<Paddle>

  constructor(private readonly options: PaddleProviderOptions) {
    this.#paddle = paddleSdk().then(
      ({ Paddle }) =>
        // The SDK takes an origin in place of an environment's name: how tests reach a fake Paddle API.
        new Paddle(options.apiKey, {
          environment: (options.apiUrl?.replace(/\/+$/, '') ?? options.environment) as Environment,
        }),
    )
  }

  /** One call to Paddle, given up after the timeout (the SDK's fetch has none). */
  private async call<T>(request: (paddle: Paddle) => Promise<T>): Promise<T> {
    const paddle = await this.#paddle
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new PaddleTimeoutError('Paddle did not answer in time')),
        this.options.timeoutMs ?? paddleTimeoutMs,
      )
    })
    try {
      return await Promise.race([request(paddle), timeout])
    } finally {
      clearTimeout(timer)
    }
  }

  /** Hatch's price for a plan: made with the sale, carrying what the ledger needs to know about it. */
  private price(
    data: HatchPriceData,
    plan: { name: string; interval: BillingInterval; currency: Currency; unitAmount: number; seats: number },
  ) {
    const seats = planById(data.hatch_plan).perSeat ? plan.seats : 1
    return {
      name: plan.name,
      description: `${plan.name} (${plan.interval})`,
      unitPrice: { amount: String(plan.unitAmount), currencyCode: plan.currency },
      billingCycle: { interval: paddleIntervals[plan.interval], frequency: 1 },
      // Pinned: the seats were checked against the members and invitations here.
      quantity: { minimum: seats, maximum: seats },
      customData: data,
      // Hatch's prices are before tax: Paddle adds the buyer's tax on top, whatever the account's default.
      taxMode: 'external' as const,
      product: { name: plan.name, taxCategory: 'saas' as const, customData: { hatch_plan: data.hatch_plan } },
    }
  }

  async createCheckout(request: CheckoutRequest) {
    const data: HatchPriceData = {
      hatch_order_id: request.orderId,
      hatch_organization_id: request.organizationId,
      hatch_plan: request.planId,
      hatch_interval: request.interval,
    }
    const seats = planById(request.planId).perSeat ? request.seats : 1
    try {
      const transaction = await this.call((paddle) =>
        paddle.transactions.create({
          items: [
            {
              quantity: seats,
              price: this.price(data, {
                name: request.planName,
                interval: request.interval,
                currency: request.currency,
                unitAmount: request.unitAmount,
                seats,
              }),
            },
          ],
          currencyCode: request.currency,
          collectionMode: 'automatic',
          // The organization's customer from an earlier checkout, so its payment methods and portal stay one.
          ...(request.customerId && { customerId: request.customerId }),
          customData: { hatch_order_id: request.orderId, hatch_organization_id: request.organizationId },
          checkout: { url: `${this.options.appUrl}/${request.locale}/${paddleCheckoutPath}` },
        }),
      )
      const url = transaction.checkout?.url
      if (!url) throw new Error(`Paddle transaction ${transaction.id} has no checkout URL`)
      return { checkoutId: transaction.id, url }
    } catch (error) {
      throw unreachableProviderError(error) ?? error
    }
  }

  /**
   * Paddle's documented check, done here rather than by the SDK's helper: that helper compares in variable time and
   * reads only one `h1`, while Paddle sends one per secret during a rotation.
   */
  async verifyEvent(rawBody: string, headers: Headers): Promise<ProviderEvent> {
    const parts = signatureParts(headers.get('paddle-signature') ?? '')
    if (!parts) throw new WebhookSignatureError('No Paddle-Signature header with ts and h1')
    const age = Math.abs(Date.now() / 1000 - parts.timestamp)
    if (age > paddleSignatureToleranceSeconds) {
      throw new WebhookSignatureError(`The signature is ${Math.round(age)} s old (a replay, or a clock far off)`)
    }
    const expected = Buffer.from(
      createHmac('sha256', this.options.webhookSecret).update(`${parts.timestamp}:${rawBody}`).digest('hex'),
    )
    const matches = parts.signatures.some((signature) => {
      const given = Buffer.from(signature)
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
    if (!matches) throw new WebhookSignatureError('The Paddle-Signature header does not match the body')
    const body: unknown = JSON.parse(rawBody)
    if (!isRecord(body)) throw new WebhookSignatureError('Not a Paddle event')
    const refundedTotal = await this.refundedTotalFor(body)
    return this.readStoredEvent(refundedTotal === undefined ? body : { ...body, hatch_refunded_total: refundedTotal })
  }

  /** For a refund event: every approved refund of its transaction so far, as Paddle has them now. */
  private async refundedTotalFor(body: Record<string, unknown>): Promise<number | undefined> {
    const data = body.data
    if (!String(body.event_type).startsWith('adjustment.') || !isRecord(data)) return undefined
    if (data.action !== 'refund' || typeof data.transaction_id !== 'string') return undefined
    const transactionId = data.transaction_id
    let total = 0
    let listed = false
    await this.call(async (paddle) => {
      for await (const adjustment of paddle.adjustments.list({
        transactionId: [transactionId],
        action: 'refund',
        status: ['approved'],
      })) {
        total += Number(adjustment.totals.total)
        if (adjustment.id === data.id) listed = true
      }
    })
    // The refund this event announces counts even if Paddle's list does not show it yet.
    const own = isRecord(data.totals) ? Number(data.totals.total ?? 0) : 0
    if (!listed && data.status === 'approved' && Number.isFinite(own)) total += own
    return total
  }

  readStoredEvent(payload: unknown): ProviderEvent {
    if (
      !isRecord(payload) ||
      typeof payload.event_id !== 'string' ||
      typeof payload.event_type !== 'string' ||
      typeof payload.occurred_at !== 'string' ||
      !isRecord(payload.data)
    ) {
      throw new WebhookSignatureError('Not a Paddle event')
    }
    const created = new Date(payload.occurred_at)
    const refundedTotal = typeof payload.hatch_refunded_total === 'number' ? payload.hatch_refunded_total : undefined
    return {
      id: payload.event_id,
      type: payload.event_type,
      created: Number.isNaN(created.getTime()) ? new Date() : created,
      payload,
      changes: changesOf(payload.event_type, payload.data, refundedTotal),
    }
  }

  private async subscription(subscriptionId: string): Promise<PaddleSubscription | null> {
    try {
      return await this.call((paddle) => paddle.subscriptions.get(subscriptionId))
    } catch (error) {
      if (errorCodeOf(error) === 'not_found' || errorCodeOf(error) === 'entity_not_found') return null
      throw error
    }
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    const subscription = await this.subscription(subscriptionId)
    // A subscription another integration of the same Paddle account sold is none of the ledger's business.
    return (subscription && snapshotOf(subscription)) ?? null
  }

  async invoiceOfPayment(paymentId: string): Promise<string | null> {
    // A Paddle transaction is the invoice and the payment at once; one Hatch did not sell is no invoice of Hatch's.
    try {
      const transaction = await this.call((paddle) => paddle.transactions.get(paymentId))
      return soldByHatch(transaction) ? transaction.id : null
    } catch (error) {
      if (errorCodeOf(error) === 'not_found' || errorCodeOf(error) === 'entity_not_found') return null
      throw error
    }
  }

  async receiptUrl(transactionId: string): Promise<string | null> {
    // Paddle's invoice PDF link lasts an hour, so it is asked for at each opening; shown in the browser, not saved.
    try {
      const invoice = await this.call((paddle) =>
        paddle.transactions.getInvoicePDF(transactionId, { disposition: 'inline' }),
      )
      return invoice.url || null
    } catch (error) {
      if (errorCodeOf(error) === 'not_found' || errorCodeOf(error) === 'entity_not_found') return null
      throw unreachableProviderError(error) ?? error
    }
  }

  async updateSubscription(subscriptionId: string, update: SubscriptionUpdate): Promise<SubscriptionSnapshot> {
    await this.call((paddle) =>
      update.cancelAtPeriodEnd
        ? paddle.subscriptions.cancel(subscriptionId, { effectiveFrom: 'next_billing_period' })
        : // Resuming before the end drops the scheduled cancellation.
          paddle.subscriptions.update(subscriptionId, { scheduledChange: null }),
    )
    return this.requiredSnapshot(subscriptionId)
  }

  /** The items a change puts on the subscription: one, at Hatch's new price, keeping the order that started it. */
  private async changedItems(subscriptionId: string, change: PlanChange) {
    const subscription = await this.subscription(subscriptionId)
    const item = subscription && hatchItemOf(subscription)
    const current = item && hatchDataOf(item.price.customData)
    const snapshot = subscription && snapshotOf(subscription)
    if (!current || !snapshot) throw new Error(`Paddle subscription ${subscriptionId} was not sold by Hatch`)
    const seats = planById(change.planId).perSeat ? change.seats : 1
    const data: HatchPriceData = { ...current, hatch_plan: change.planId, hatch_interval: change.interval }
    return {
      snapshot,
      items: [
        {
          quantity: seats,
          price: this.price(data, {
            name: change.planName,
            interval: change.interval,
            currency: snapshot.currency,
            unitAmount: change.unitAmount,
            seats,
          }),
        },
      ],
    }
  }

  async previewChange(subscriptionId: string, change: PlanChange, prorationDate: Date): Promise<ChangePreview> {
    const { snapshot, items } = await this.changedItems(subscriptionId, change)
    const preview = await this.call((paddle) =>
      paddle.subscriptions.previewUpdate(subscriptionId, {
        items,
        prorationBillingMode: 'prorated_immediately',
      }),
    )
    const summary = preview.updateSummary
    const result = summary?.result
    const period = preview.currentBillingPeriod
    return {
      currency: snapshot.currency,
      credit: Number(summary?.credit.amount ?? 0),
      charge: Number(summary?.charge.amount ?? 0),
      amountDue: result?.action === 'charge' ? Number(result.amount) : 0,
      creditLeft: result?.action === 'credit' ? Number(result.amount) : 0,
      newAmount: change.unitAmount * (items[0]?.quantity ?? 1),
      periodStart: period ? new Date(period.startsAt) : prorationDate,
      periodEnd: period ? new Date(period.endsAt) : prorationDate,
      prorationDate,
    }
  }

  async changePlan(subscriptionId: string, change: PlanChange, _prorationDate: Date) {
    const { items } = await this.changedItems(subscriptionId, change)
    try {
      await this.call((paddle) =>
        paddle.subscriptions.update(subscriptionId, {
          items,
          // Charged now for the rest of the period, as previewed; a declined card leaves the subscription as it was.
          prorationBillingMode: 'prorated_immediately',
          onPaymentFailure: 'prevent_change',
        }),
      )
    } catch (error) {
      if (errorCodeOf(error) === 'subscription_payment_declined') {
        throw new ChargeDeclinedError((error as Error).message)
      }
      throw error
    }
    // The change's transaction reaches the ledger through its `transaction.completed` webhook.
    return { snapshot: await this.requiredSnapshot(subscriptionId), deliveries: [] }
  }

  private async requiredSnapshot(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const snapshot = await this.retrieveSubscription(subscriptionId)
    if (!snapshot) throw new Error(`Paddle subscription ${subscriptionId} disappeared during an update`)
    return snapshot
  }

  async closeCheckout(transactionId: string): Promise<boolean> {
    try {
      await this.call((paddle) => paddle.transactions.update(transactionId, { status: 'canceled' }))
      return true
    } catch (error) {
      const unreachable = unreachableProviderError(error)
      if (unreachable) throw unreachable
      // Paddle refuses to cancel a transaction that is billed, paid or completed: the buyer got there first. Any
      // other refusal (a missing permission, say) is an error for the log, not a checkout someone paid.
      const transaction = await this.call((paddle) => paddle.transactions.get(transactionId))
      if (['billed', 'paid', 'completed'].includes(transaction.status)) return false
      throw error
    }
  }

  async portalUrl(customerId: string, _returnUrl: string): Promise<string> {
    // Paddle's portal has no link back to the app (the return URL is not Paddle's to take): Back returns to Billing.
    const session = await this.call((paddle) => paddle.customerPortalSessions.create(customerId, []))
    return session.urls.general.overview
  }
}
