import { denialMessage } from '#/lib/access-control'
import { accessAllows, loadOrganizationAccess } from '#/server/auth/organization-access'
import type { Database } from '#/server/db/client'
import { log } from '#/server/log'
import { AppError, createRouter, protectedProcedure } from '#/server/trpc/init'
import { localCheckoutInput, settleLocalCheckoutInput } from '../schemas'
import { isCheckoutOverdue } from './payments/local-provider'
import { activePaymentProviderId, localPaymentProvider } from './payments/payment-provider'
import { deliverLocalEvents as deliver } from './plan-changes'
import { isCheckoutSuperseded } from './superseded-checkouts'

/** How long "pay later" takes to settle, as a bank transfer or a wallet confirmation would. */
export const payLaterDelayMs = 4000

export const checkoutNotFound = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'CHECKOUT_NOT_FOUND', message: 'This checkout does not exist' })

/** The local provider's checkout page: only its buyer sees it, and only while the local provider is active. */
export const localCheckoutRouter = createRouter({
  get: protectedProcedure.input(localCheckoutInput).query(async ({ ctx, input }) => {
    if (activePaymentProviderId() !== 'local') throw checkoutNotFound()
    const checkout = await localPaymentProvider(ctx.db).getCheckout(input.id)
    if (!checkout || checkout.userId !== ctx.user.id) throw checkoutNotFound()
    const { userId: _user, successUrl: _success, cancelUrl: _cancel, ...shown } = checkout
    // Paying would start a second subscription: the page says so instead of offering to pay.
    const superseded =
      (checkout.status === 'open' || checkout.status === 'canceled') &&
      (await isCheckoutSuperseded(ctx.db, checkout.orderId))
    // Past its time a checkout is over, whether or not the hourly sweep has closed it yet.
    return isCheckoutOverdue(checkout) ? { ...shown, status: 'expired' as const, superseded } : { ...shown, superseded }
  }),

  settle: protectedProcedure.input(settleLocalCheckoutInput).mutation(async ({ ctx, input }) => {
    if (activePaymentProviderId() !== 'local') throw checkoutNotFound()
    const provider = localPaymentProvider(ctx.db)
    const checkout = await provider.getCheckout(input.id)
    if (!checkout || checkout.userId !== ctx.user.id) throw checkoutNotFound()
    if (checkout.status === 'expired' || isCheckoutOverdue(checkout)) {
      throw new AppError({ code: 'CONFLICT', appCode: 'CHECKOUT_EXPIRED', message: 'This checkout has expired' })
    }
    if (checkout.status !== 'open') {
      throw new AppError({ code: 'CONFLICT', appCode: 'CHECKOUT_CLOSED', message: 'This checkout is already closed' })
    }
    if (input.outcome !== 'cancel' && (await isCheckoutSuperseded(ctx.db, checkout.orderId))) {
      throw new AppError({
        code: 'CONFLICT',
        appCode: 'ALREADY_SUBSCRIBED',
        message: 'This organization already has a subscription; change its plan instead',
      })
    }
    // Paying is managing billing: whoever started the checkout must still be allowed to, now (a member whose role
    // changed, or who left, can only cancel what they started).
    if (input.outcome !== 'cancel') {
      const access = await loadOrganizationAccess(ctx.db, ctx.user.id, checkout.organizationId)
      if (!access || !accessAllows(access, { billing: ['manage'] })) {
        throw new AppError({
          code: 'FORBIDDEN',
          appCode: 'NOT_ALLOWED_TO_ACCESS_RESOURCE',
          message: denialMessage({ billing: ['manage'] }),
          params: { resource: 'billing' },
        })
      }
    }
    const { redirectUrl, deliveries, settlesLater } = await provider.settleCheckout(checkout, input.outcome)
    await deliver(ctx.db, deliveries)
    if (settlesLater) {
      const db = ctx.db
      setTimeout(() => {
        provider
          .settleLater(checkout.id)
          .then((settled) => deliver(db, settled))
          .catch((error) => log().error({ err: error, checkoutId: checkout.id }, 'settling a local checkout failed'))
      }, payLaterDelayMs).unref()
    }
    return { redirectUrl }
  }),
})

/**
 * Closes the local provider's checkouts left behind (expired unpaid; "pay later" whose settling a restart lost),
 * through the ledger like any of its events. A maintenance task: at start and hourly.
 */
export async function closeOverdueLocalCheckouts(db: Database, now = new Date()): Promise<number> {
  if (activePaymentProviderId() !== 'local') return 0
  const deliveries = await localPaymentProvider(db).closeOverdueCheckouts(now, payLaterDelayMs)
  await deliver(db, deliveries)
  return deliveries.length
}
