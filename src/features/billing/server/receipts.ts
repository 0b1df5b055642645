import { eq } from 'drizzle-orm'
import { accessAllows, loadOrganizationAccess } from '#/server/auth/organization-access'
import type { Database } from '#/server/db/client'
import { billingOrders, organizations } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { log } from '#/server/log'
import { readSiteSettings } from '#/server/settings'
import { AppError, createRouter, protectedProcedure } from '#/server/trpc/init'
import { receiptInput } from '../schemas'
import { paymentProviderFor } from './payments/payment-provider'

type Order = typeof billingOrders.$inferSelect

/** The same answer for an order that does not exist and one the caller may not read: nothing leaks either way. */
export const receiptNotFound = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'RECEIPT_NOT_FOUND', message: 'There is no receipt with this number' })

/** Orders that took money, refunded since or not: each has a receipt. */
const receiptStatuses = new Set(['paid', 'partially_refunded', 'refunded'])

/**
 * The provider's own receipt or invoice where it has one: asked for now from providers whose links expire, otherwise
 * the link stored with the payment. The local provider has none: Hatch's receipt is its receipt.
 */
async function providerReceiptUrl(db: Database, order: Order): Promise<string | null> {
  if (order.provider === 'local') return null
  let provider: Awaited<ReturnType<typeof paymentProviderFor>>
  try {
    provider = await paymentProviderFor(db, order.provider)
  } catch {
    // The provider is no longer installed or configured: the link it gave at the time is all there is.
    return order.receiptUrl
  }
  if (provider.receiptUrl && order.providerInvoiceId) {
    try {
      const url = await provider.receiptUrl(order.providerInvoiceId)
      if (url) return url
    } catch (error) {
      // The customer still gets a receipt: Hatch's own, with what the ledger knows of the payment.
      log().warn({ err: error, orderId: order.id, provider: order.provider }, 'the provider gave no receipt link')
    }
  }
  return order.receiptUrl
}

/**
 * A provider's link the receipt page may send the customer to: https (or a provider on this machine, as in
 * development and the tests); anything else gets Hatch's own receipt instead.
 */
function followable(url: string | null): string | null {
  if (!url) return null
  try {
    const { protocol, hostname } = new URL(url)
    if (protocol === 'https:') return url
    return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname) ? url : null
  } catch {
    return null
  }
}

/**
 * Opens the receipt of a paid order for someone who may read its organization's billing now: the provider's own page
 * (to redirect to), or what Hatch's printable receipt shows.
 */
export async function openReceipt(db: Database, userId: string, orderId: string) {
  const [order] = await db.select().from(billingOrders).where(eq(billingOrders.id, orderId))
  if (!order?.paidAt || !receiptStatuses.has(order.status)) throw receiptNotFound()
  const access = await loadOrganizationAccess(db, userId, order.organizationId)
  if (!access || !accessAllows(access, { billing: ['read'] })) throw receiptNotFound()
  const url = followable(await providerReceiptUrl(db, order))
  if (url) return { redirectUrl: url, receipt: null }
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, order.organizationId))
  const settings = await readSiteSettings(db)
  return {
    redirectUrl: null,
    receipt: {
      seller: settings.productName,
      sellerUrl: getEnv().APP_URL,
      organizationName: organization?.name ?? '',
      orderId: order.id,
      kind: order.kind,
      planId: order.planId,
      interval: order.interval,
      seats: order.seats,
      currency: order.currency,
      amount: order.amount,
      amountRefunded: order.amountRefunded,
      status: order.status,
      periodStart: order.periodStart,
      periodEnd: order.periodEnd,
      paidAt: order.paidAt,
      // The local provider moves no money: its receipt says so.
      test: order.provider === 'local',
    },
  }
}

export const receiptRouter = createRouter({
  /** A paid order's receipt: only for someone who may read its organization's billing now; any other is NOT_FOUND. */
  open: protectedProcedure
    .input(receiptInput)
    .query(({ ctx, input }) => openReceipt(ctx.db, ctx.user.id, input.orderId)),
})
