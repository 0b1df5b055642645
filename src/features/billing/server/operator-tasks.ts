import { eq } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { billingEvents } from '#/server/db/schema'
import { activePaymentProviderId, type PaymentProviderId, paymentProviderFor } from '#/server/payments/payment-provider'
import { reconcileSubscriptions, replayEvent } from './ledger'

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
  const provider = paymentProviderFor(db, stored.provider as PaymentProviderId)
  return { replayed: await replayEvent(db, provider, eventId), provider: stored.provider, type: stored.type }
}

/** `npm run billing -- reconcile`: re-reads every open subscription from the active provider and repairs drift. */
export async function reconcileBilling(db: Database): Promise<{ provider: string; drifted: string[] }> {
  const provider = paymentProviderFor(db, activePaymentProviderId())
  return { provider: provider.id, drifted: await reconcileSubscriptions(db, provider) }
}
