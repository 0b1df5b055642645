import { and, eq, isNotNull, isNull, lte } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { billingEvents, billingOrders } from '#/server/db/schema'
import { log } from '#/server/log'
import { reconcileSubscriptions, replayEvent } from './ledger'
import { activePaymentProviderId, paymentProviderFor } from './payments/payment-provider'
import { endSupersededCheckouts } from './superseded-checkouts'

/** `npm run billing -- replay <event-id>`: applies a stored event again, whichever provider sent it. */
export async function replayBillingEvent(
  db: Database,
  eventId: string,
): Promise<{ replayed: boolean; provider?: string; type?: string }> {
  const [stored] = await db
    .select({ provider: billingEvents.provider, type: billingEvents.type })
    .from(billingEvents)
    .where(eq(billingEvents.id, eventId))
  if (!stored) return { replayed: false }
  const provider = await paymentProviderFor(db, stored.provider)
  return { replayed: await replayEvent(db, provider, eventId), provider: stored.provider, type: stored.type }
}

/** `npm run billing -- reconcile`: re-reads every open subscription from the active provider and repairs drift. */
export async function reconcileBilling(db: Database): Promise<{ provider: string; drifted: string[] }> {
  const provider = await paymentProviderFor(db, activePaymentProviderId())
  return { provider: provider.id, drifted: await reconcileSubscriptions(db, provider) }
}

/**
 * Closes, at the provider, the checkouts Hatch no longer offers (past their 24 hours, unpaid) where the provider would
 * keep taking payment for them (Paddle). The provider's own event then marks each order expired. A maintenance task.
 * Providers that end their checkouts on time are not asked: Stripe would refuse each expired session with an error.
 */
export async function closeOverdueProviderCheckouts(db: Database, now = new Date()): Promise<number> {
  // Checkouts a subscription replaced are over too, whatever their time (one a failed sweep left open).
  await endSupersededCheckouts(db)
  const provider = await paymentProviderFor(db, activePaymentProviderId())
  if (!provider.closeCheckout || !provider.checkoutsOutliveTheirTime) return 0
  const overdue = await db
    .select({ id: billingOrders.id, checkoutId: billingOrders.providerCheckoutId })
    .from(billingOrders)
    .where(
      and(
        eq(billingOrders.provider, provider.id),
        eq(billingOrders.status, 'pending'),
        isNull(billingOrders.providerSubscriptionId),
        isNotNull(billingOrders.providerCheckoutId),
        lte(billingOrders.expiresAt, now),
      ),
    )
    .limit(500)
  let closed = 0
  for (const order of overdue) {
    if (!order.checkoutId) continue
    try {
      if (await provider.closeCheckout(order.checkoutId)) closed += 1
    } catch (error) {
      // The next hour tries again.
      log().error({ err: error, orderId: order.id }, 'closing an overdue checkout at the payment provider failed')
    }
  }
  return closed
}
