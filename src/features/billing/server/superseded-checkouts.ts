import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { billingOrders } from '#/server/db/schema'
import { log } from '#/server/log'
import { localPaymentProvider, paymentProviderFor } from './payments/payment-provider'

/**
 * An unfinished checkout whose organization already has a live subscription started by another order: paying it
 * would start a second subscription. The subscription must be linked to another order (its checkout completed), so a
 * provider that announces the new subscription before the checkout that started it never ends the paying checkout.
 */
const replacedCheckout = sql`${billingOrders.kind} = 'checkout'
  and ${billingOrders.providerSubscriptionId} is null
  and exists (
    select 1 from billing_subscriptions live
    join billing_orders other
      on other.provider = live.provider and other.provider_subscription_id = live.provider_subscription_id
    where live.organization_id = ${billingOrders.organizationId}
      and live.status <> 'canceled'
      and other.id <> ${billingOrders.id}
  )`

/** A replaced checkout still open in the ledger: the sweep below ends it. */
export const supersededCheckout = sql`${billingOrders.status} = 'pending' and ${replacedCheckout}`

/**
 * Whether paying this order's checkout would start a second subscription for its organization (also once the sweep
 * ended it, so its page can say why it is closed).
 */
export async function isCheckoutSuperseded(db: Database, orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: billingOrders.id })
    .from(billingOrders)
    .where(and(eq(billingOrders.id, orderId), inArray(billingOrders.status, ['pending', 'canceled']), replacedCheckout))
  return row !== undefined
}

/**
 * Ends every unfinished checkout that a subscription made pointless (the organization paid through another one,
 * then perhaps changed plan or seats): at the provider first where it can stop one (the local provider, Stripe and
 * Paddle; Polar's and Lemon Squeezy's end at their own expiry, and their pages are no longer offered), then in the
 * ledger as canceled. Runs after each applied payment event and hourly.
 */
export async function endSupersededCheckouts(db: Database): Promise<number> {
  const open = await db
    .select({ id: billingOrders.id, provider: billingOrders.provider, checkoutId: billingOrders.providerCheckoutId })
    .from(billingOrders)
    .where(supersededCheckout)
    .limit(500)
  let ended = 0
  for (const order of open) {
    try {
      if (order.checkoutId && !(await closeAtProvider(db, order.provider, order.checkoutId))) continue
      const closed = await db
        .update(billingOrders)
        .set({ status: 'canceled', updatedAt: new Date() })
        .where(
          and(
            eq(billingOrders.id, order.id),
            eq(billingOrders.status, 'pending'),
            isNull(billingOrders.providerSubscriptionId),
          ),
        )
        .returning({ id: billingOrders.id })
      ended += closed.length
    } catch (error) {
      // The next payment event or the hourly maintenance tries again; the pay pages refuse it meanwhile.
      log().error({ err: error, orderId: order.id }, 'ending a checkout another subscription replaced failed')
    }
  }
  return ended
}

/** False when the provider says the checkout can no longer be stopped (it was paid meanwhile). */
async function closeAtProvider(db: Database, providerId: string, checkoutId: string): Promise<boolean> {
  if (providerId === 'local') return localPaymentProvider(db).cancelOpenCheckout(checkoutId)
  const provider = await paymentProviderFor(db, providerId)
  return provider.closeCheckout ? provider.closeCheckout(checkoutId) : true
}
