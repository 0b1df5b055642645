import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { billingEvents, billingOrders, billingSubscriptions, organizations } from '#/server/db/schema'
import {
  membersWithRoles,
  notify,
  type RecordedEvent,
  recordEvent,
  sendRecordedEvents,
} from '#/server/organization-events'
import { nextOrderStatus, type OrderStatus, type OrderStep } from '../order-status'
import type { LedgerChange, PaymentProvider, ProviderEvent, SubscriptionSnapshot } from './payments/provider'

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]
type Order = typeof billingOrders.$inferSelect

export type ReceiveResult = { outcome: 'applied' | 'duplicate' }

/**
 * Stores a verified event once (by provider and id) and applies it. A duplicate of an applied event is acknowledged
 * and ignored; an event whose earlier application failed is applied now (the provider's retry completes it).
 */
export async function receiveEvent(
  db: Database,
  provider: PaymentProvider,
  event: ProviderEvent,
): Promise<ReceiveResult> {
  await db
    .insert(billingEvents)
    .values({
      provider: provider.id,
      id: event.id,
      type: event.type,
      payload: event.payload,
      providerCreatedAt: event.created,
    })
    .onConflictDoNothing()
  const [stored] = await db
    .select({ processedAt: billingEvents.processedAt })
    .from(billingEvents)
    .where(and(eq(billingEvents.provider, provider.id), eq(billingEvents.id, event.id)))
  if (stored?.processedAt) return { outcome: 'duplicate' }
  await applyStoredEvent(db, provider, event, { force: false })
  return { outcome: 'applied' }
}

/**
 * Applies an event in one transaction with marking it processed, so a crash part-way leaves it unprocessed. The
 * subscriptions it names are re-read from the provider first: whatever order events arrive in, the ledger ends
 * with the provider's current state, not with whichever event came last.
 */
export async function applyStoredEvent(
  db: Database,
  provider: PaymentProvider,
  event: ProviderEvent,
  options: { force: boolean },
): Promise<void> {
  // Webhook deliveries are written with the change they report; they and the owners' notices go once it committed.
  const effects: LedgerEffects = { deliveries: [], notices: [] }
  try {
    const snapshots = await readSubscriptions(provider, event.changes)
    const changes = await linkRefundsToInvoices(provider, event.changes)
    await db.transaction(async (tx) => {
      // Locks the event: two deliveries of one event apply it once.
      const [locked] = await tx
        .select({ processedAt: billingEvents.processedAt })
        .from(billingEvents)
        .where(and(eq(billingEvents.provider, provider.id), eq(billingEvents.id, event.id)))
        .for('update')
      if (!locked) throw new Error(`Event ${event.id} is not stored`)
      if (locked.processedAt && !options.force) return
      for (const snapshot of snapshots.values()) await saveSubscription(tx, provider.id, snapshot, effects)
      for (const change of changes) await applyChange(tx, provider.id, change, snapshots, effects)
      await tx
        .update(billingEvents)
        .set({ processedAt: new Date(), attempts: sql`${billingEvents.attempts} + 1`, lastError: null })
        .where(and(eq(billingEvents.provider, provider.id), eq(billingEvents.id, event.id)))
    })
  } catch (error) {
    await db
      .update(billingEvents)
      .set({ attempts: sql`${billingEvents.attempts} + 1`, lastError: String(error).slice(0, 2000) })
      .where(and(eq(billingEvents.provider, provider.id), eq(billingEvents.id, event.id)))
    throw error
  }
  // Outside the try: the event is applied; a hiccup queueing what it set off does not mark it failed.
  await applyEffects(db, effects)
}

async function readSubscriptions(provider: PaymentProvider, changes: LedgerChange[]) {
  const ids = new Set<string>()
  for (const change of changes) {
    if ('subscriptionId' in change && change.subscriptionId) ids.add(change.subscriptionId)
  }
  const snapshots = new Map<string, SubscriptionSnapshot>()
  for (const id of ids) {
    const snapshot = await provider.retrieveSubscription(id)
    if (snapshot) snapshots.set(id, snapshot)
  }
  return snapshots
}

/** A refund names its payment; the provider says which invoice (and so which order) that payment paid. */
async function linkRefundsToInvoices(provider: PaymentProvider, changes: LedgerChange[]): Promise<LedgerChange[]> {
  const linked: LedgerChange[] = []
  for (const change of changes) {
    if (change.type === 'payment.refunded' && change.paymentId && !change.invoiceId && provider.invoiceOfPayment) {
      const invoiceId = await provider.invoiceOfPayment(change.paymentId)
      linked.push(invoiceId ? { ...change, invoiceId } : change)
    } else linked.push(change)
  }
  return linked
}

/** Raised when an event needs another one first (a refund of a payment whose order is not recorded yet). */
export class EventArrivedEarlyError extends Error {
  override name = 'EventArrivedEarlyError'
}

/** What a ledger change sets off once it has committed: webhook deliveries to queue and owners to tell. */
export interface LedgerEffects {
  deliveries: RecordedEvent[]
  notices: { organizationId: string; type: 'payment_failed' | 'subscription_ending'; date?: Date }[]
}

async function applyEffects(db: Database, effects: LedgerEffects): Promise<void> {
  await sendRecordedEvents(effects.deliveries)
  for (const notice of effects.notices) {
    const [organization] = await db
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, notice.organizationId))
    if (!organization) continue
    await notify(db, await membersWithRoles(db, notice.organizationId, ['owner']), {
      type: notice.type,
      organizationId: notice.organizationId,
      params: {
        organization: organization.name,
        date: notice.date ? notice.date.toISOString().slice(0, 10) : '',
      },
      link: '/console/organization/billing',
    })
  }
}

/**
 * Writes the provider's view of a subscription over ours (only for an organization that still exists). A new
 * subscription, or a change in what people see of it, is a `subscription.updated` webhook event: its deliveries go
 * into `effects` for the caller to send after its transaction, or are sent here when there is none; so is the owners'
 * notice that it is ending.
 */
export async function saveSubscription(
  tx: Transaction | Database,
  providerId: string,
  snapshot: SubscriptionSnapshot,
  effects?: LedgerEffects,
) {
  const [organization] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, snapshot.organizationId))
  if (!organization) return
  const [before] = await tx
    .select()
    .from(billingSubscriptions)
    .where(
      and(eq(billingSubscriptions.provider, providerId), eq(billingSubscriptions.providerSubscriptionId, snapshot.id)),
    )
  const values = {
    planId: snapshot.planId,
    interval: snapshot.interval,
    seats: snapshot.seats,
    currency: snapshot.currency,
    amount: snapshot.amount,
    status: snapshot.status,
    cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
    currentPeriodStart: snapshot.currentPeriodStart,
    currentPeriodEnd: snapshot.currentPeriodEnd,
    canceledAt: snapshot.canceledAt,
    providerCustomerId: snapshot.customerId,
    updatedAt: new Date(),
  }
  await tx
    .insert(billingSubscriptions)
    .values({
      id: randomUUID(),
      organizationId: snapshot.organizationId,
      provider: providerId,
      providerSubscriptionId: snapshot.id,
      ...values,
    })
    .onConflictDoUpdate({
      target: [billingSubscriptions.provider, billingSubscriptions.providerSubscriptionId],
      set: values,
    })
  const seen = (row: Parameters<typeof subscriptionEventData>[0]) => JSON.stringify(subscriptionEventData(row))
  if (before && seen(before) === seen(values)) return
  const deliveries = await recordEvent(tx, {
    organizationId: snapshot.organizationId,
    type: 'subscription.updated',
    data: subscriptionEventData(values),
  })
  const ending =
    (values.cancelAtPeriodEnd && !before?.cancelAtPeriodEnd) ||
    (values.status === 'canceled' && before !== undefined && before.status !== 'canceled')
  const notices: LedgerEffects['notices'] = ending
    ? [
        {
          organizationId: snapshot.organizationId,
          type: 'subscription_ending',
          date: values.currentPeriodEnd ?? values.canceledAt ?? new Date(),
        },
      ]
    : []
  if (effects) {
    effects.deliveries.push(...deliveries)
    effects.notices.push(...notices)
  } else await applyEffects(tx as Database, { deliveries, notices })
}

/** A subscription as webhook receivers get it. */
function subscriptionEventData(row: {
  planId: string
  interval: string
  seats: number
  status: string
  cancelAtPeriodEnd: boolean
  currentPeriodEnd: Date | null
  canceledAt: Date | null
}) {
  return {
    planId: row.planId,
    interval: row.interval,
    seats: row.seats,
    status: row.status,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    currentPeriodEnd: row.currentPeriodEnd ? new Date(row.currentPeriodEnd).toISOString() : null,
    canceledAt: row.canceledAt ? new Date(row.canceledAt).toISOString() : null,
  }
}

/** A paid order as webhook receivers get it. */
function orderEventData(order: Order) {
  return {
    orderId: order.id,
    kind: order.kind,
    planId: order.planId,
    interval: order.interval,
    seats: order.seats,
    currency: order.currency,
    amount: order.amount,
    paidAt: (order.paidAt ?? new Date()).toISOString(),
    receiptUrl: order.receiptUrl ?? null,
  }
}

async function orderBy(
  tx: Transaction,
  providerId: string,
  keys: { orderId?: string; checkoutId?: string; invoiceId?: string; paymentId?: string },
) {
  const conditions = [
    keys.invoiceId
      ? and(eq(billingOrders.provider, providerId), eq(billingOrders.providerInvoiceId, keys.invoiceId))
      : undefined,
    keys.orderId ? and(eq(billingOrders.provider, providerId), eq(billingOrders.id, keys.orderId)) : undefined,
    keys.checkoutId
      ? and(eq(billingOrders.provider, providerId), eq(billingOrders.providerCheckoutId, keys.checkoutId))
      : undefined,
    keys.paymentId
      ? and(eq(billingOrders.provider, providerId), eq(billingOrders.providerPaymentId, keys.paymentId))
      : undefined,
  ]
  for (const condition of conditions) {
    if (!condition) continue
    const [order] = await tx.select().from(billingOrders).where(condition).for('update')
    if (order) return order
  }
  return undefined
}

/**
 * Moves an order one step if the state machine allows it; otherwise only fills in what the event adds. An order that
 * becomes paid is an `order.paid` webhook event.
 */
async function stepOrder(
  tx: Transaction,
  order: Order,
  step: OrderStep | null,
  fields: Partial<Order>,
  effects: LedgerEffects,
) {
  const status = step ? nextOrderStatus(order.status as OrderStatus, step) : null
  const update: Partial<Order> = { ...fields, updatedAt: new Date() }
  if (status) {
    update.status = status
    if (status === 'paid' || ((status === 'refunded' || status === 'partially_refunded') && !order.paidAt)) {
      update.paidAt = order.paidAt ?? new Date()
    }
  }
  if (step?.kind === 'refunded' && status)
    update.amountRefunded = Math.max(order.amountRefunded, Math.min(step.amountRefunded, order.amount))
  const [updated] = await tx.update(billingOrders).set(update).where(eq(billingOrders.id, order.id)).returning()
  if (updated && status === 'failed' && order.status !== 'failed') {
    effects.notices.push({ organizationId: updated.organizationId, type: 'payment_failed' })
  }
  if (updated && status === 'paid' && order.status !== 'paid') {
    effects.deliveries.push(
      ...(await recordEvent(tx, {
        organizationId: updated.organizationId,
        type: 'order.paid',
        data: orderEventData(updated),
      })),
    )
  }
}

async function applyChange(
  tx: Transaction,
  providerId: string,
  change: LedgerChange,
  snapshots: Map<string, SubscriptionSnapshot>,
  effects: LedgerEffects,
) {
  switch (change.type) {
    case 'checkout.completed': {
      const order = await orderBy(tx, providerId, { orderId: change.orderId, checkoutId: change.checkoutId })
      if (!order) return
      await stepOrder(
        tx,
        order,
        change.paid ? { kind: 'paid' } : null,
        {
          providerCheckoutId: order.providerCheckoutId ?? change.checkoutId,
          providerSubscriptionId: change.subscriptionId ?? order.providerSubscriptionId,
        },
        effects,
      )
      return
    }
    case 'checkout.expired': {
      const order = await orderBy(tx, providerId, { orderId: change.orderId, checkoutId: change.checkoutId })
      // A checkout closed after Hatch's time for it ran out (Hatch closes those at providers that keep them open) is
      // expired, whoever pressed the button.
      const overdue = order?.expiresAt ? order.expiresAt <= new Date() : false
      if (order)
        await stepOrder(
          tx,
          order,
          { kind: change.reason === 'canceled' && !overdue ? 'canceled' : 'expired' },
          {},
          effects,
        )
      return
    }
    case 'payment.succeeded': {
      const fields: Partial<Order> = {
        providerInvoiceId: change.invoiceId ?? undefined,
        providerPaymentId: change.paymentId ?? undefined,
        providerSubscriptionId: change.subscriptionId ?? undefined,
        periodStart: change.periodStart ?? undefined,
        periodEnd: change.periodEnd ?? undefined,
        receiptUrl: change.receiptUrl ?? undefined,
      }
      const existing = await orderBy(tx, providerId, { invoiceId: change.invoiceId, orderId: change.orderId })
      if (existing) {
        await stepOrder(tx, existing, { kind: 'paid' }, fields, effects)
        return
      }
      // A renewal or a plan change's invoice: a new order for the subscription's organization, paid as it is recorded.
      const snapshot = change.subscriptionId ? snapshots.get(change.subscriptionId) : undefined
      if (!snapshot || !change.invoiceId) return
      const [organization] = await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, snapshot.organizationId))
      if (!organization) return
      const [renewal] = await tx
        .insert(billingOrders)
        .values({
          id: randomUUID(),
          organizationId: snapshot.organizationId,
          provider: providerId,
          kind: change.reason === 'change' ? 'change' : 'renewal',
          planId: snapshot.planId,
          interval: snapshot.interval,
          seats: snapshot.seats,
          currency: change.currency,
          amount: change.amount,
          status: 'paid',
          paidAt: new Date(),
          ...fields,
        })
        .returning()
      if (renewal) {
        effects.deliveries.push(
          ...(await recordEvent(tx, {
            organizationId: renewal.organizationId,
            type: 'order.paid',
            data: orderEventData(renewal),
          })),
        )
      }
      return
    }
    case 'payment.failed': {
      const order = await orderBy(tx, providerId, { orderId: change.orderId, invoiceId: change.invoiceId })
      if (order) await stepOrder(tx, order, { kind: 'failed' }, {}, effects)
      return
    }
    case 'payment.refunded': {
      const order = await orderBy(tx, providerId, {
        paymentId: change.paymentId,
        invoiceId: change.invoiceId,
        orderId: change.orderId,
      })
      if (order) {
        await stepOrder(
          tx,
          order,
          { kind: 'refunded', amountRefunded: change.amountRefunded, amount: order.amount },
          {},
          effects,
        )
        return
      }
      // A refund of an invoice whose payment is not recorded yet: left unprocessed, so the provider's retry (after
      // the payment event) applies it. A refund of nothing of ours is none of the ledger's business.
      if (change.invoiceId || change.orderId) {
        throw new EventArrivedEarlyError(
          `The refunded payment ${change.paymentId ?? change.invoiceId} is not recorded yet`,
        )
      }
      return
    }
    case 'subscription.changed':
      // Saved from the provider's current view above.
      return
  }
}

/** Re-applies a stored event (after a fix, or to repair a mistake): `npm run billing -- replay <event-id>`. */
export async function replayEvent(db: Database, provider: PaymentProvider, eventId: string): Promise<boolean> {
  const [stored] = await db
    .select()
    .from(billingEvents)
    .where(and(eq(billingEvents.provider, provider.id), eq(billingEvents.id, eventId)))
  if (!stored) return false
  await applyStoredEvent(db, provider, provider.readStoredEvent(stored.payload), { force: true })
  return true
}

/**
 * Re-reads every subscription the ledger holds as open from the provider and writes what it says:
 * `npm run billing -- reconcile`. Returns the subscriptions whose state had drifted.
 */
export async function reconcileSubscriptions(db: Database, provider: PaymentProvider): Promise<string[]> {
  const open = await db
    .select()
    .from(billingSubscriptions)
    .where(
      and(
        eq(billingSubscriptions.provider, provider.id),
        sql`${billingSubscriptions.status} in ('incomplete', 'trialing', 'active', 'past_due')`,
      ),
    )
  const drifted: string[] = []
  for (const row of open) {
    const snapshot = await provider.retrieveSubscription(row.providerSubscriptionId)
    if (!snapshot) continue
    const differs =
      snapshot.status !== row.status ||
      snapshot.cancelAtPeriodEnd !== row.cancelAtPeriodEnd ||
      snapshot.seats !== row.seats ||
      snapshot.planId !== row.planId ||
      snapshot.interval !== row.interval ||
      snapshot.currentPeriodEnd?.getTime() !== row.currentPeriodEnd?.getTime() ||
      snapshot.amount !== row.amount ||
      snapshot.currency !== row.currency
    if (!differs) continue
    await saveSubscription(db, provider.id, snapshot)
    drifted.push(row.providerSubscriptionId)
  }
  return drifted
}
