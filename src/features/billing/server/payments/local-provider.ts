import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { localPaymentObjects } from '../schema'
import { addInterval, prorate } from './proration'
import type {
  ChangePreview,
  CheckoutRequest,
  LedgerChange,
  PaymentProvider,
  PlanChange,
  ProviderEvent,
  SubscriptionSnapshot,
  SubscriptionUpdate,
} from './provider'
import { WebhookSignatureError } from './provider'

/** The header the local provider signs its events in, shaped like Stripe's: `t=<unix seconds>,v1=<hex HMAC>`. */
export const localSignatureHeader = 'hatch-signature'
const toleranceSeconds = 300

/** A checkout as the local provider keeps it: what was asked for, and how it ended. */
export type LocalCheckout = Omit<CheckoutRequest, 'customerId' | 'expiresAt'> & {
  id: string
  status: 'open' | 'processing' | 'complete' | 'failed' | 'canceled' | 'expired'
  subscriptionId: string | null
  /** ISO time; a checkout stored before expiry existed has none and never expires. */
  expiresAt?: string
}

/** Whether an open checkout ran out of time unpaid. */
export function isCheckoutOverdue(checkout: LocalCheckout, now = new Date()): boolean {
  return checkout.status === 'open' && checkout.expiresAt !== undefined && new Date(checkout.expiresAt) <= now
}

type StoredSubscription = Omit<SubscriptionSnapshot, 'currentPeriodStart' | 'currentPeriodEnd' | 'canceledAt'> & {
  currentPeriodStart: string | null
  currentPeriodEnd: string | null
  canceledAt: string | null
  /** What a downgrade credited beyond its invoice, spent on the next ones (Stripe's customer balance). */
  creditBalance?: number
}

/** A signed event, ready for the webhook path: its body and headers, exactly as an HTTP delivery carries them. */
export interface SignedDelivery {
  body: string
  headers: Headers
}

export type LocalCheckoutOutcome = 'pay' | 'pay_later' | 'fail' | 'cancel'

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`

function snapshotOf(stored: StoredSubscription, now = new Date()): SubscriptionSnapshot {
  const snapshot: SubscriptionSnapshot = {
    ...stored,
    currentPeriodStart: stored.currentPeriodStart ? new Date(stored.currentPeriodStart) : null,
    currentPeriodEnd: stored.currentPeriodEnd ? new Date(stored.currentPeriodEnd) : null,
    canceledAt: stored.canceledAt ? new Date(stored.canceledAt) : null,
  }
  // A subscription set to end does end when its period is over, as a provider's scheduler would do it.
  if (snapshot.cancelAtPeriodEnd && snapshot.currentPeriodEnd && snapshot.currentPeriodEnd <= now) {
    snapshot.status = 'canceled'
    snapshot.canceledAt ??= snapshot.currentPeriodEnd
  }
  return snapshot
}

/** Dates travel as ISO strings in an event's JSON; these fields come back as dates. */
const dateFields = ['periodStart', 'periodEnd'] as const

function readChange(value: unknown): LedgerChange {
  const change = { ...(value as Record<string, unknown>) }
  for (const field of dateFields) {
    if (typeof change[field] === 'string') change[field] = new Date(change[field] as string)
  }
  return change as unknown as LedgerChange
}

/**
 * The built-in provider: Hatch serves the checkout page itself (Pay, Pay later, Fail, Cancel) and keeps its own
 * records, then tells the ledger through signed events on the same webhook path a real provider uses. It moves no
 * money; an operator configures a payment provider's app before charging anyone.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly id = 'local' as const
  private readonly signingKey: Buffer

  constructor(
    private readonly db: Database,
    options: { secret: string; appUrl: string },
  ) {
    this.signingKey = createHash('sha256').update(`hatch-local-payments:${options.secret}`).digest()
    this.appUrl = options.appUrl
  }
  private readonly appUrl: string

  async createCheckout(request: CheckoutRequest) {
    const { customerId: _customer, expiresAt, ...asked } = request
    const checkout: LocalCheckout = {
      ...asked,
      id: newId('lcs'),
      status: 'open',
      subscriptionId: null,
      expiresAt: expiresAt.toISOString(),
    }
    await this.db.insert(localPaymentObjects).values({ id: checkout.id, kind: 'checkout', data: checkout })
    return { checkoutId: checkout.id, url: `${this.appUrl}/${request.locale}/pay/${checkout.id}` }
  }

  async getCheckout(id: string): Promise<LocalCheckout | null> {
    const [row] = await this.db
      .select({ data: localPaymentObjects.data })
      .from(localPaymentObjects)
      .where(and(eq(localPaymentObjects.id, id), eq(localPaymentObjects.kind, 'checkout')))
    return row ? (row.data as LocalCheckout) : null
  }

  /**
   * What the checkout page's buttons do. Returns where the buyer goes next and the events to deliver now; "pay
   * later" leaves the payment to `settleLater`, which the caller runs when it chooses.
   */
  async settleCheckout(
    checkout: LocalCheckout,
    outcome: LocalCheckoutOutcome,
    now = new Date(),
  ): Promise<{ redirectUrl: string; deliveries: SignedDelivery[]; settlesLater: boolean }> {
    const completed = { type: 'checkout.completed', orderId: checkout.orderId, checkoutId: checkout.id } as const
    if (outcome === 'cancel') {
      await this.saveCheckout({ ...checkout, status: 'canceled' })
      return {
        redirectUrl: checkout.cancelUrl.replace('{outcome}', 'canceled'),
        deliveries: [
          this.sign('checkout.expired', now, [{ ...completed, type: 'checkout.expired', reason: 'canceled' }]),
        ],
        settlesLater: false,
      }
    }
    if (outcome === 'fail') {
      await this.saveCheckout({ ...checkout, status: 'failed' })
      return {
        redirectUrl: checkout.cancelUrl.replace('{outcome}', 'failed'),
        deliveries: [this.sign('payment.failed', now, [{ type: 'payment.failed', orderId: checkout.orderId }])],
        settlesLater: false,
      }
    }
    const subscription: StoredSubscription = {
      id: newId('lsub'),
      customerId: `lcus_${checkout.organizationId}`,
      organizationId: checkout.organizationId,
      planId: checkout.planId,
      interval: checkout.interval,
      seats: checkout.seats,
      currency: checkout.currency,
      amount: checkout.amount,
      status: outcome === 'pay' ? 'active' : 'incomplete',
      cancelAtPeriodEnd: false,
      currentPeriodStart: now.toISOString(),
      currentPeriodEnd: addInterval(now, checkout.interval).toISOString(),
      canceledAt: null,
    }
    await this.saveSubscription(subscription)
    await this.saveCheckout({
      ...checkout,
      status: outcome === 'pay' ? 'complete' : 'processing',
      subscriptionId: subscription.id,
    })
    const paid = outcome === 'pay'
    const started = {
      ...completed,
      paid,
      subscriptionId: subscription.id,
      customerId: subscription.customerId ?? undefined,
    }
    const changes = paid ? [started, this.paymentOf(checkout, subscription)] : [started]
    return {
      redirectUrl: checkout.successUrl,
      deliveries: [this.sign('checkout.completed', now, changes)],
      settlesLater: !paid,
    }
  }

  /** Stops an open checkout from taking payment (it was replaced); false when it is no longer open. */
  async cancelOpenCheckout(id: string): Promise<boolean> {
    const checkout = await this.getCheckout(id)
    if (checkout?.status !== 'open') return false
    await this.saveCheckout({ ...checkout, status: 'canceled' })
    return true
  }

  /** Settles a "pay later" checkout: its subscription becomes active; the caller delivers the returned event. */
  async settleLater(checkoutId: string): Promise<SignedDelivery[]> {
    const checkout = await this.getCheckout(checkoutId)
    if (!checkout?.subscriptionId || checkout.status !== 'processing') return []
    const stored = await this.storedSubscription(checkout.subscriptionId)
    if (!stored) return []
    await this.saveSubscription({ ...stored, status: 'active' })
    await this.saveCheckout({ ...checkout, status: 'complete' })
    return [this.sign('payment.succeeded', new Date(), [this.paymentOf(checkout, stored)])]
  }

  /**
   * What a provider's scheduler would do with checkouts left behind: an open one past its expiry expires (its order
   * with it); a "pay later" one whose settling was lost (the server restarted in between) settles. Returns the events
   * to deliver.
   */
  async closeOverdueCheckouts(now = new Date(), settleAfterMs = 0): Promise<SignedDelivery[]> {
    const rows = await this.db
      .select({ data: localPaymentObjects.data, updatedAt: localPaymentObjects.updatedAt })
      .from(localPaymentObjects)
      .where(
        and(
          eq(localPaymentObjects.kind, 'checkout'),
          sql`${localPaymentObjects.data}->>'status' in ('open', 'processing')`,
        ),
      )
    const deliveries: SignedDelivery[] = []
    for (const row of rows) {
      const checkout = row.data as LocalCheckout
      if (isCheckoutOverdue(checkout, now)) {
        await this.saveCheckout({ ...checkout, status: 'expired' })
        deliveries.push(
          this.sign('checkout.expired', now, [
            { type: 'checkout.expired', orderId: checkout.orderId, checkoutId: checkout.id, reason: 'expired' },
          ]),
        )
      } else if (checkout.status === 'processing' && row.updatedAt.getTime() + settleAfterMs <= now.getTime()) {
        deliveries.push(...(await this.settleLater(checkout.id)))
      }
    }
    return deliveries
  }

  private paymentOf(checkout: LocalCheckout, subscription: StoredSubscription): LedgerChange {
    return {
      type: 'payment.succeeded',
      orderId: checkout.orderId,
      subscriptionId: subscription.id,
      paymentId: `lpay_${checkout.id}`,
      // The checkout page doubles as the receipt once the payment is made.
      receiptUrl: `${this.appUrl}/${checkout.locale}/pay/${checkout.id}`,
      amount: checkout.amount,
      currency: checkout.currency,
      periodStart: subscription.currentPeriodStart ? new Date(subscription.currentPeriodStart) : undefined,
      periodEnd: subscription.currentPeriodEnd ? new Date(subscription.currentPeriodEnd) : undefined,
    }
  }

  /** Signs an event as the local provider; tests and the refund command use it too. */
  sign(type: string, created: Date, changes: LedgerChange[], id = newId('levt')): SignedDelivery {
    const body = JSON.stringify({ id, type, created: Math.floor(created.getTime() / 1000), changes })
    const timestamp = Math.floor(Date.now() / 1000)
    const signature = createHmac('sha256', this.signingKey).update(`${timestamp}.${body}`).digest('hex')
    return {
      body,
      headers: new Headers({
        'content-type': 'application/json',
        [localSignatureHeader]: `t=${timestamp},v1=${signature}`,
      }),
    }
  }

  async verifyEvent(rawBody: string, headers: Headers): Promise<ProviderEvent> {
    const header = headers.get(localSignatureHeader) ?? ''
    const parts = new Map(
      header.split(',').map((part) => {
        const [key = '', value = ''] = part.split('=', 2)
        return [key.trim(), value.trim()] as const
      }),
    )
    const timestamp = Number(parts.get('t'))
    const signature = parts.get('v1') ?? ''
    if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) {
      throw new WebhookSignatureError('No valid signature header')
    }
    if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) {
      throw new WebhookSignatureError('The signature is too old')
    }
    const expected = createHmac('sha256', this.signingKey).update(`${timestamp}.${rawBody}`).digest()
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
      throw new WebhookSignatureError('The signature does not match')
    }
    let payload: unknown
    try {
      payload = JSON.parse(rawBody)
    } catch {
      throw new WebhookSignatureError('The body is not JSON')
    }
    return this.readStoredEvent(payload)
  }

  readStoredEvent(payload: unknown): ProviderEvent {
    const event = payload as { id?: unknown; type?: unknown; created?: unknown; changes?: unknown }
    if (
      typeof event.id !== 'string' ||
      typeof event.type !== 'string' ||
      typeof event.created !== 'number' ||
      !Array.isArray(event.changes)
    ) {
      throw new WebhookSignatureError('Not a local payment event')
    }
    return {
      id: event.id,
      type: event.type,
      created: new Date(event.created * 1000),
      payload,
      changes: event.changes.map(readChange),
    }
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    const stored = await this.storedSubscription(subscriptionId)
    return stored ? snapshotOf(stored) : null
  }

  async updateSubscription(subscriptionId: string, update: SubscriptionUpdate): Promise<SubscriptionSnapshot> {
    const stored = await this.requiredSubscription(subscriptionId)
    const next: StoredSubscription = { ...stored, cancelAtPeriodEnd: update.cancelAtPeriodEnd }
    await this.saveSubscription(next)
    return snapshotOf(next)
  }

  async previewChange(subscriptionId: string, change: PlanChange, prorationDate: Date): Promise<ChangePreview> {
    return this.prorated(await this.requiredSubscription(subscriptionId), change, prorationDate)
  }

  async changePlan(subscriptionId: string, change: PlanChange, prorationDate: Date) {
    const stored = await this.requiredSubscription(subscriptionId)
    const preview = this.prorated(stored, change, prorationDate)
    const next: StoredSubscription = {
      ...stored,
      planId: change.planId,
      interval: change.interval,
      seats: change.seats,
      amount: preview.newAmount,
      currentPeriodStart: preview.periodStart.toISOString(),
      currentPeriodEnd: preview.periodEnd.toISOString(),
      creditBalance: preview.creditLeft,
    }
    await this.saveSubscription(next)
    const invoiceId = newId('linv')
    const paid: LedgerChange = {
      type: 'payment.succeeded',
      reason: 'change',
      subscriptionId,
      invoiceId,
      paymentId: `lpay_${invoiceId}`,
      amount: preview.amountDue,
      currency: preview.currency,
      periodStart: preview.periodStart,
      periodEnd: preview.periodEnd,
    }
    return {
      snapshot: snapshotOf(next),
      deliveries: [this.sign('invoice.paid', prorationDate, [paid, { type: 'subscription.changed', subscriptionId }])],
    }
  }

  private prorated(stored: StoredSubscription, change: PlanChange, at: Date): ChangePreview {
    if (!stored.currentPeriodStart || !stored.currentPeriodEnd) {
      throw new Error(`Local subscription ${stored.id} has no period`)
    }
    return prorate(
      {
        amount: stored.amount,
        interval: stored.interval,
        currency: stored.currency,
        periodStart: new Date(stored.currentPeriodStart),
        periodEnd: new Date(stored.currentPeriodEnd),
        creditBalance: stored.creditBalance ?? 0,
      },
      { amount: change.unitAmount * change.seats, interval: change.interval },
      at,
    )
  }

  private async requiredSubscription(id: string): Promise<StoredSubscription> {
    const stored = await this.storedSubscription(id)
    if (!stored) throw new Error(`No local subscription ${id}`)
    return stored
  }

  /** Events telling the ledger that a subscription changed (what a provider sends after an update). */
  subscriptionChanged(subscriptionId: string): SignedDelivery {
    return this.sign('subscription.changed', new Date(), [{ type: 'subscription.changed', subscriptionId }])
  }

  private async storedSubscription(id: string): Promise<StoredSubscription | null> {
    const [row] = await this.db
      .select({ data: localPaymentObjects.data })
      .from(localPaymentObjects)
      .where(and(eq(localPaymentObjects.id, id), eq(localPaymentObjects.kind, 'subscription')))
    return row ? (row.data as StoredSubscription) : null
  }

  private async saveSubscription(subscription: StoredSubscription) {
    await this.db
      .insert(localPaymentObjects)
      .values({ id: subscription.id, kind: 'subscription', data: subscription })
      .onConflictDoUpdate({ target: localPaymentObjects.id, set: { data: subscription, updatedAt: new Date() } })
  }

  private async saveCheckout(checkout: LocalCheckout) {
    await this.db
      .update(localPaymentObjects)
      .set({ data: checkout, updatedAt: new Date() })
      .where(eq(localPaymentObjects.id, checkout.id))
  }
}
