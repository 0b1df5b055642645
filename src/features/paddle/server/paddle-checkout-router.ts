import { and, eq } from 'drizzle-orm'
import { activePaymentProviderId, checkoutNotFound } from '#/features/billing/server'
import { accessAllows, loadOrganizationAccess } from '#/server/auth/organization-access'
import { billingOrders, organizations } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { createRouter, protectedProcedure } from '#/server/trpc/init'
import { paddleCheckoutInput } from '../schemas'

/** Where a Paddle checkout stands, as its page shows it. */
export type PaddleCheckoutStatus = 'open' | 'processing' | 'complete' | 'expired' | 'closed' | 'not_allowed'

function statusOf(order: {
  status: string
  providerSubscriptionId: string | null
  expiresAt: Date | null
}): PaddleCheckoutStatus {
  switch (order.status) {
    case 'pending':
      if (order.providerSubscriptionId) return 'processing'
      // Paddle keeps a transaction payable; Hatch's order stops taking payment at its own time.
      return order.expiresAt && order.expiresAt <= new Date() ? 'expired' : 'open'
    case 'paid':
    case 'partially_refunded':
    case 'refunded':
      return 'complete'
    case 'expired':
      return 'expired'
    default:
      return 'closed'
  }
}

/**
 * The app's checkout page for Paddle (Paddle.js opens the transaction there): a checkout only for its buyer, and only
 * while Paddle is the active provider; the client token (public by design) only while there is something to pay.
 */
export const paddleCheckoutRouter = createRouter({
  get: protectedProcedure.input(paddleCheckoutInput).query(async ({ ctx, input }) => {
    if (activePaymentProviderId() !== 'paddle') throw checkoutNotFound()
    const env = getEnv()
    const paddleSettings = env.PADDLE_CLIENT_TOKEN
      ? { clientToken: env.PADDLE_CLIENT_TOKEN, environment: env.PADDLE_ENVIRONMENT }
      : null
    const [order] = await ctx.db
      .select({
        id: billingOrders.id,
        createdById: billingOrders.createdById,
        organizationId: billingOrders.organizationId,
        organizationName: organizations.name,
        planId: billingOrders.planId,
        interval: billingOrders.interval,
        seats: billingOrders.seats,
        currency: billingOrders.currency,
        amount: billingOrders.amount,
        status: billingOrders.status,
        providerSubscriptionId: billingOrders.providerSubscriptionId,
        expiresAt: billingOrders.expiresAt,
      })
      .from(billingOrders)
      .innerJoin(organizations, eq(organizations.id, billingOrders.organizationId))
      .where(and(eq(billingOrders.provider, 'paddle'), eq(billingOrders.providerCheckoutId, input.transactionId)))
      .limit(1)
    if (!order) {
      // Not a checkout Hatch made: a renewal to pay or a card to update, linked from Paddle's emails and portal
      // (Paddle sends those to the default payment link, this page). Paddle.js shows what it is for; the page opens it.
      return { kind: 'payment' as const, paddle: paddleSettings }
    }
    // Another buyer's checkout is not there for this account.
    if (order.createdById !== ctx.user.id) throw checkoutNotFound()
    let status: PaddleCheckoutStatus = statusOf(order)
    if (status === 'open') {
      // Paying is managing billing: a buyer whose role changed since, or who left, may no longer pay.
      const access = await loadOrganizationAccess(ctx.db, ctx.user.id, order.organizationId)
      if (!access || !accessAllows(access, { billing: ['manage'] })) status = 'not_allowed'
    }
    return {
      kind: 'checkout' as const,
      orderId: order.id,
      organizationName: order.organizationName,
      planId: order.planId,
      interval: order.interval,
      seats: order.seats,
      currency: order.currency,
      amount: order.amount,
      status,
      paddle: status === 'open' ? paddleSettings : null,
    }
  }),
})
