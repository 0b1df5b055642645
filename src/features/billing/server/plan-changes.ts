import { appPlanLimit, planTooSmallCode } from '#/lib/app-plan-limits'
import { planName } from '#/lib/plan-text'
import { type BillingInterval, type Currency, memberLimitOf, type PaidPlanId, planById } from '#/lib/plans'
import type { Database } from '#/server/db/client'
import { appPlanUsage, seatsTaken } from '#/server/plan-limits'
import { AppError } from '#/server/trpc/init'
import { saveSubscription } from './ledger'
import { paymentProviderFor } from './payments/payment-provider'
import { type ChangePreview, ChargeDeclinedError, type PlanChange } from './payments/provider'
import { grantingSubscription } from './subscriptions'
import { handleBillingWebhook } from './webhook'

/** A limit the organization would be over on the new plan: what it uses, and what the plan allows. */
export interface ChangeBlocker {
  /** The core's members, or an installed app's limit by its name (its plans.ts). */
  limit: 'members' | (string & {})
  used: number
  allowed: number
}

export interface PlannedChange {
  subscriptionId: string
  providerId: string
  change: PlanChange
  /** Limits the new plan would break; a change with any is refused until they are resolved. */
  blockers: ChangeBlocker[]
}

/** How long a previewed price may be confirmed: the amounts change with every second of the period. */
const confirmableForMs = 60 * 60 * 1000

export const noSubscription = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'NO_SUBSCRIPTION', message: 'This organization has no subscription' })

/**
 * What the organization's subscription becomes with `asked` (another plan and interval, or only other seats on Team),
 * and what it would break. Team's seats default to the current seats, and never fewer than the members and
 * invitations; another plan has one.
 */
export async function planChange(
  db: Database,
  organizationId: string,
  request: { planId: PaidPlanId; interval: BillingInterval; seats?: number } | { seats: number },
): Promise<PlannedChange> {
  const subscription = await grantingSubscription(db, organizationId)
  if (!subscription) throw noSubscription()
  const asked =
    'planId' in request
      ? request
      : {
          planId: subscription.planId as PaidPlanId,
          interval: subscription.interval as BillingInterval,
          seats: request.seats,
        }
  const plan = planById(asked.planId)
  if (!('planId' in request) && !plan.perSeat) {
    throw new AppError({ code: 'BAD_REQUEST', appCode: 'PLAN_HAS_NO_SEATS', message: 'Only Team has seats' })
  }
  const taken = await seatsTaken(db, organizationId)
  const places = taken.members + taken.invited
  const seats = plan.perSeat ? (asked.seats ?? Math.max(subscription.seats, places, 2)) : 1
  if (
    asked.planId === subscription.planId &&
    asked.interval === subscription.interval &&
    seats === subscription.seats
  ) {
    throw new AppError({ code: 'BAD_REQUEST', appCode: 'PLAN_UNCHANGED', message: 'This is the current plan' })
  }
  const blockers: ChangeBlocker[] = []
  const memberLimit = memberLimitOf(plan, seats)
  if (places > memberLimit) blockers.push({ limit: 'members', used: places, allowed: memberLimit })
  // An app's limit the organization can bring down itself (its books) blocks a change that would leave it over.
  for (const [name, { used, limit }] of Object.entries(await appPlanUsage(db, organizationId, plan.id))) {
    if (limit !== null && used > limit && appPlanLimit(name)?.downgrade)
      blockers.push({ limit: name, used, allowed: limit })
  }
  const currency = subscription.currency as Currency
  return {
    subscriptionId: subscription.providerSubscriptionId,
    providerId: subscription.provider,
    change: {
      planId: asked.planId,
      interval: asked.interval,
      seats,
      unitAmount: plan.prices[currency][asked.interval],
      planName: planName(plan.id),
    },
    blockers,
  }
}

export async function previewPlanChange(db: Database, planned: PlannedChange, at = new Date()): Promise<ChangePreview> {
  return (await paymentProviderFor(db, planned.providerId)).previewChange(planned.subscriptionId, planned.change, at)
}

/** The first limit a change would break, as the refusal the client translates. */
function blockerRefusal(blocker: ChangeBlocker, perSeat: boolean): AppError {
  if (blocker.limit !== 'members') {
    return new AppError({
      code: 'BAD_REQUEST',
      appCode: planTooSmallCode(blocker.limit),
      message: `That plan allows ${blocker.allowed} ${blocker.limit}`,
      params: { limit: String(blocker.allowed), count: String(blocker.used) },
    })
  }
  return perSeat
    ? new AppError({
        code: 'BAD_REQUEST',
        appCode: 'SEATS_BELOW_MEMBERS',
        message: `The organization already has ${blocker.used} members and invitations`,
        params: { count: String(blocker.used) },
      })
    : new AppError({
        code: 'BAD_REQUEST',
        appCode: 'PLAN_TOO_SMALL_FOR_MEMBERS',
        message: `That plan allows ${blocker.allowed} members`,
        params: { limit: String(blocker.allowed) },
      })
}

/**
 * Makes a change the customer confirmed, as of the instant its preview was priced: refused when the organization
 * would be over a limit, when the preview is old, or when it would now charge another amount than the one shown.
 * The provider invoices the proration at once; its invoice becomes an order in the ledger.
 */
export async function confirmPlanChange(
  db: Database,
  planned: PlannedChange,
  confirmed: { prorationDate: Date; expectedAmountDue: number },
) {
  const [blocker] = planned.blockers
  if (blocker) throw blockerRefusal(blocker, planById(planned.change.planId).perSeat)
  const age = Date.now() - confirmed.prorationDate.getTime()
  if (age > confirmableForMs || age < -60_000) {
    throw new AppError({
      code: 'CONFLICT',
      appCode: 'PLAN_CHANGE_STALE',
      message: 'This price was shown too long ago; review the change again',
    })
  }
  const provider = await paymentProviderFor(db, planned.providerId)
  const preview = await provider.previewChange(planned.subscriptionId, planned.change, confirmed.prorationDate)
  // Never more than the customer confirmed. A provider that prorates at the moment of the change charges a little
  // less as the period runs on (about 1 % over the ten minutes a preview holds, at worst): that much is accepted.
  const drift = confirmed.expectedAmountDue - preview.amountDue
  const tolerance = provider.prorationAtRequestTime ? Math.max(100, Math.round(confirmed.expectedAmountDue * 0.01)) : 0
  if (drift < 0 || drift > tolerance) {
    throw new AppError({
      code: 'CONFLICT',
      appCode: 'PLAN_CHANGE_STALE',
      message: 'The price of this change has changed; review it again',
    })
  }
  const { snapshot, deliveries } = await provider
    .changePlan(planned.subscriptionId, planned.change, confirmed.prorationDate)
    .catch((error: unknown) => {
      if (!(error instanceof ChargeDeclinedError)) throw error
      throw new AppError({
        code: 'PAYMENT_REQUIRED',
        appCode: 'PLAN_CHANGE_DECLINED',
        message: 'The payment for this change was declined; the plan was not changed',
      })
    })
  await saveSubscription(db, provider.id, snapshot)
  await deliverLocalEvents(db, deliveries)
  return { snapshot, preview }
}

/**
 * Delivers the local provider's events through the webhook handler itself, with their signatures, so the local
 * flow runs the same verification, storage and ledger code as a real provider's HTTP delivery.
 */
export async function deliverLocalEvents(db: Database, deliveries: { body: string; headers: Headers }[]) {
  for (const { body, headers } of deliveries) {
    const response = await handleBillingWebhook(db, 'local', body, headers)
    if (!response.ok) throw new Error(`The local payment event was refused: ${response.status}`)
  }
}
