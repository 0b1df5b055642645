import { randomUUID } from 'node:crypto'
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import { dashboardRangeInput } from '#/features/dashboard/server'
import { allows } from '#/lib/access-control'
import { planName } from '#/lib/plan-text'
import { type PaidPlanId, periodAmount, planById } from '#/lib/plans'
import { aiTokensThisMonth, aiUsageByMember } from '#/server/ai/metering'
import { getEnv } from '#/server/env'
import { log } from '#/server/log'
import { type organizationPlan, planLimitsOf, seatsTaken } from '#/server/plan-limits'
import { getSiteSettings } from '#/server/settings'
import { AppError, adminProcedure, createRouter, orgProcedure } from '#/server/trpc/init'
import {
  cancelInput,
  changePlanInput,
  changeSeatsInput,
  checkoutInput,
  orderListInput,
  portalInput,
  previewChangeInput,
  previewSeatsInput,
  replayEventInput,
} from '../schemas'
import { saveSubscription } from './ledger'
import { localCheckoutRouter } from './local-checkout-router'
import { replayBillingEvent } from './operator-tasks'
import { activePaymentProviderId, checkoutCurrencies, paymentProviderFor } from './payments/payment-provider'
import { confirmPlanChange, noSubscription, type PlannedChange, planChange, previewPlanChange } from './plan-changes'
import { receiptRouter } from './receipts'
import { readRevenueNumbers } from './revenue-queries'
import { billingEvents, billingOrders, billingSubscriptions } from './schema'
import { grantingSubscription } from './subscriptions'
import { supersededCheckout } from './superseded-checkouts'
import '../billing-messages'

type Db = Parameters<typeof organizationPlan>[0]

/** How long a checkout stays open for its buyer: Stripe's longest (and default) session life. */
export const checkoutLifetimeMs = 24 * 60 * 60 * 1000

/** Team seats cannot drop below the places already taken (members and pending invitations). */
async function assertSeatsCover(db: Db, organizationId: string, seats: number) {
  const taken = await seatsTaken(db, organizationId)
  const needed = taken.members + taken.invited
  if (seats < needed) {
    throw new AppError({
      code: 'BAD_REQUEST',
      appCode: 'SEATS_BELOW_MEMBERS',
      message: `The organization already has ${needed} members and invitations`,
      params: { count: String(needed) },
    })
  }
}

/** A preview as the confirmation dialog shows it. */
async function describeChange(db: Db, planned: PlannedChange) {
  const preview = await previewPlanChange(db, planned)
  return {
    planId: planned.change.planId,
    interval: planned.change.interval,
    seats: planned.change.seats,
    blockers: planned.blockers,
    ...preview,
  }
}

/**
 * An unfinished checkout the buyer may still finish: its page is offered, never a settled order's, nor one that would
 * start a second subscription.
 */
const resumable = sql`${billingOrders.status} = 'pending'
  and ${billingOrders.providerSubscriptionId} is null
  and (${billingOrders.expiresAt} is null or ${billingOrders.expiresAt} > now())
  and not (${supersededCheckout})`

/** The buyer finished the checkout and the payment is on its way (a method that settles later). */
const processing = sql`${billingOrders.status} = 'pending' and ${billingOrders.providerSubscriptionId} is not null`

const orderColumns = {
  id: billingOrders.id,
  kind: billingOrders.kind,
  planId: billingOrders.planId,
  interval: billingOrders.interval,
  seats: billingOrders.seats,
  currency: billingOrders.currency,
  amount: billingOrders.amount,
  amountRefunded: billingOrders.amountRefunded,
  status: billingOrders.status,
  periodStart: billingOrders.periodStart,
  periodEnd: billingOrders.periodEnd,
  receiptUrl: billingOrders.receiptUrl,
  createdAt: billingOrders.createdAt,
  paidAt: billingOrders.paidAt,
  expiresAt: billingOrders.expiresAt,
  // Only while the buyer may still finish it: an unfinished checkout's page, never a settled one's.
  resumeUrl: sql<string | null>`case when ${resumable} then ${billingOrders.checkoutUrl} end`,
  processing: sql<boolean>`${processing}`,
}

export const billingRouter = createRouter({
  /** The plan every member may see; owners and admins (`billing: read`) also get the subscription and usage. */
  overview: orgProcedure({}).query(async ({ ctx }) => {
    const canRead = allows(ctx.permissions, { billing: ['read'] })
    const canManage = allows(ctx.permissions, { billing: ['manage'] })
    const { planId, limits } = await planLimitsOf(ctx.db, ctx.organization.id)
    const base = {
      planId,
      canRead,
      canManage,
      provider: activePaymentProviderId(),
      checkoutCurrencies: checkoutCurrencies(),
      limits,
    }
    if (!canRead) return { ...base, details: null }
    const [subscription, taken] = await Promise.all([
      grantingSubscription(ctx.db, ctx.organization.id),
      seatsTaken(ctx.db, ctx.organization.id),
    ])
    return {
      ...base,
      details: {
        subscription: subscription
          ? {
              planId: subscription.planId,
              interval: subscription.interval,
              seats: subscription.seats,
              currency: subscription.currency,
              amount: subscription.amount,
              status: subscription.status,
              cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
              currentPeriodEnd: subscription.currentPeriodEnd,
              // The providers with a customer portal of their own (the local provider has none).
              hasPortal: subscription.provider !== 'local' && Boolean(subscription.providerCustomerId),
            }
          : null,
        usage: {
          members: { used: taken.members, invited: taken.invited },
          aiTokens: await aiTokensThisMonth(ctx.db, ctx.organization.id),
          aiByMember: await aiUsageByMember(ctx.db, ctx.organization.id),
        },
      },
    }
  }),

  /**
   * One page of the active organization's orders and renewals, newest first, with what the page says whatever page is
   * shown: whether a payment is on its way, and the checkouts the buyer may still finish.
   */
  orders: orgProcedure({ billing: ['read'] })
    .input(orderListInput)
    .query(async ({ ctx, input }) => {
      const ofOrganization = eq(billingOrders.organizationId, ctx.organization.id)
      const [items, [counted], unfinished, [waiting]] = await Promise.all([
        ctx.db
          .select(orderColumns)
          .from(billingOrders)
          .where(ofOrganization)
          .orderBy(desc(billingOrders.createdAt), desc(billingOrders.id))
          .limit(input.limit)
          .offset((input.page - 1) * input.limit),
        ctx.db.select({ total: sql<number>`count(*)::int` }).from(billingOrders).where(ofOrganization),
        ctx.db
          .select(orderColumns)
          .from(billingOrders)
          .where(and(ofOrganization, resumable))
          .orderBy(desc(billingOrders.createdAt))
          .limit(5),
        ctx.db.select({ id: billingOrders.id }).from(billingOrders).where(and(ofOrganization, processing)).limit(1),
      ])
      return { items, total: counted?.total ?? 0, unfinished, anyProcessing: waiting !== undefined }
    }),

  /** Starts a checkout at the active provider for the active organization; answers where to send the buyer. */
  startCheckout: orgProcedure({ billing: ['manage'] })
    .input(checkoutInput)
    .mutation(async ({ ctx, input }) => {
      if (await grantingSubscription(ctx.db, ctx.organization.id)) {
        throw new AppError({
          code: 'CONFLICT',
          appCode: 'ALREADY_SUBSCRIBED',
          message: 'This organization already has a subscription; change its plan instead',
        })
      }
      const plan = planById(input.planId)
      const taken = await seatsTaken(ctx.db, ctx.organization.id)
      const seats = plan.perSeat ? (input.seats ?? Math.max(2, taken.members + taken.invited)) : 1
      if (plan.perSeat) await assertSeatsCover(ctx.db, ctx.organization.id, seats)
      const amount = periodAmount(plan, input.interval, input.currency, seats)
      const orderId = randomUUID()
      const expiresAt = new Date(Date.now() + checkoutLifetimeMs)
      const provider = await paymentProviderFor(ctx.db)
      const [previous] = await ctx.db
        .select({ customerId: billingSubscriptions.providerCustomerId })
        .from(billingSubscriptions)
        .where(
          and(
            eq(billingSubscriptions.organizationId, ctx.organization.id),
            eq(billingSubscriptions.provider, provider.id),
          ),
        )
        .orderBy(desc(billingSubscriptions.updatedAt))
        .limit(1)
      await ctx.db.insert(billingOrders).values({
        id: orderId,
        organizationId: ctx.organization.id,
        createdById: ctx.user.id,
        provider: provider.id,
        kind: 'checkout',
        planId: plan.id,
        interval: input.interval,
        seats,
        currency: input.currency,
        amount,
        expiresAt,
      })
      const appUrl = getEnv().APP_URL
      // A provider that fails or does not answer leaves no order behind that nobody could ever pay (issue 26).
      const forgetOrder = async (error: unknown): Promise<never> => {
        await ctx.db.delete(billingOrders).where(eq(billingOrders.id, orderId))
        throw error
      }
      const { checkoutId, url } = await provider
        .createCheckout({
          orderId,
          organizationId: ctx.organization.id,
          organizationName: ctx.organization.name,
          userId: ctx.user.id,
          customerEmail: ctx.user.email,
          customerId: previous?.customerId ?? null,
          planId: plan.id as PaidPlanId,
          planName: planName(plan.id, input.locale),
          interval: input.interval,
          currency: input.currency,
          seats,
          amount,
          unitAmount: plan.prices[input.currency][input.interval],
          locale: input.locale,
          successUrl: `${appUrl}/${input.locale}/my-orders?order=${orderId}`,
          cancelUrl: `${appUrl}/${input.locale}/?checkout={outcome}#pricing`,
          expiresAt,
        })
        .catch(forgetOrder)
      await ctx.db
        .update(billingOrders)
        .set({ providerCheckoutId: checkoutId, checkoutUrl: url })
        .where(eq(billingOrders.id, orderId))
      return { orderId, url }
    }),

  /** What a plan, interval or seat change would charge now and renew at, and any limit it would break. */
  previewChange: orgProcedure({ billing: ['manage'] })
    .input(previewChangeInput)
    .query(async ({ ctx, input }) => describeChange(ctx.db, await planChange(ctx.db, ctx.organization.id, input))),

  /** Seats only, on Team: the same preview as a plan change keeping plan and interval. */
  previewSeats: orgProcedure({ billing: ['manage'] })
    .input(previewSeatsInput)
    .query(async ({ ctx, input }) => describeChange(ctx.db, await planChange(ctx.db, ctx.organization.id, input))),

  /** Pro ⇄ Team, monthly ⇄ yearly, as previewed and confirmed: the proration is invoiced at once. */
  changePlan: orgProcedure({ billing: ['manage'] })
    .input(changePlanInput)
    .mutation(async ({ ctx, input }) => {
      const planned = await planChange(ctx.db, ctx.organization.id, input)
      const { snapshot, preview } = await confirmPlanChange(ctx.db, planned, input)
      return { planId: snapshot.planId, interval: snapshot.interval, seats: snapshot.seats, ...preview }
    }),

  changeSeats: orgProcedure({ billing: ['manage'] })
    .input(changeSeatsInput)
    .mutation(async ({ ctx, input }) => {
      const planned = await planChange(ctx.db, ctx.organization.id, { seats: input.seats })
      const { snapshot, preview } = await confirmPlanChange(ctx.db, planned, input)
      return { seats: snapshot.seats, ...preview }
    }),

  /** Cancels at the end of the paid period (the plan stays until then), or resumes before it ends. */
  setCancelAtPeriodEnd: orgProcedure({ billing: ['manage'] })
    .input(cancelInput)
    .mutation(async ({ ctx, input }) => {
      const subscription = await grantingSubscription(ctx.db, ctx.organization.id)
      if (!subscription) throw noSubscription()
      const provider = await paymentProviderFor(ctx.db, subscription.provider)
      const snapshot = await provider.updateSubscription(subscription.providerSubscriptionId, {
        cancelAtPeriodEnd: input.cancelAtPeriodEnd,
      })
      await saveSubscription(ctx.db, provider.id, snapshot)
      return { cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd }
    }),

  /** The provider's customer portal (payment methods, invoices, cancellation), where the provider has one. */
  portal: orgProcedure({ billing: ['manage'] })
    .input(portalInput)
    .mutation(async ({ ctx, input }) => {
      const subscription = await grantingSubscription(ctx.db, ctx.organization.id)
      const provider = subscription ? await paymentProviderFor(ctx.db, subscription.provider) : null
      if (!subscription?.providerCustomerId || !provider?.portalUrl) throw noSubscription()
      const url = await provider.portalUrl(
        subscription.providerCustomerId,
        `${getEnv().APP_URL}/${input.locale}/console/organization/billing`,
      )
      return { url }
    }),

  /** For app admins (Console → System): provider events that were stored but could not be applied. */
  failingEvents: adminProcedure.query(({ ctx }) =>
    ctx.db
      .select({
        provider: billingEvents.provider,
        id: billingEvents.id,
        type: billingEvents.type,
        attempts: billingEvents.attempts,
        lastError: billingEvents.lastError,
        receivedAt: billingEvents.receivedAt,
      })
      .from(billingEvents)
      .where(and(isNull(billingEvents.processedAt), gt(billingEvents.attempts, 0)))
      .orderBy(desc(billingEvents.receivedAt))
      .limit(20),
  ),

  /** Applies a stored provider event again (after the cause was fixed), as `npm run billing -- replay <id>` does. */
  replayEvent: adminProcedure.input(replayEventInput).mutation(async ({ ctx, input }) => {
    let outcome: Awaited<ReturnType<typeof replayBillingEvent>>
    try {
      outcome = await replayBillingEvent(ctx.db, input.id)
    } catch (error) {
      log().warn({ err: error, eventId: input.id }, 'a replayed payment event failed again')
      throw new AppError({
        code: 'CONFLICT',
        appCode: 'PAYMENT_EVENT_STILL_FAILING',
        message: 'The event failed again; see the server log',
      })
    }
    if (!outcome.replayed) {
      throw new AppError({
        code: 'NOT_FOUND',
        appCode: 'PAYMENT_EVENT_NOT_FOUND',
        message: 'No stored event has this id',
      })
    }
    return { id: input.id }
  }),

  /**
   * The site's money for app admins' Dashboard: orders and revenue per currency over the range, MRR and the
   * subscriptions by plan now. Days are cut in the Dashboard's time zone (Configuration).
   */
  revenue: adminProcedure.input(dashboardRangeInput).query(async ({ ctx, input }) => {
    const { analyticsTimeZone: timeZone } = await getSiteSettings(ctx.db)
    const numbers = await readRevenueNumbers(ctx.db, { ...input, timeZone })
    return { range: { from: input.from, to: input.to, granularity: input.granularity, timeZone }, ...numbers }
  }),

  local: localCheckoutRouter,
  receipt: receiptRouter,
})
