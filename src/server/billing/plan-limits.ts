import { and, count, desc, eq, gt, inArray, sql } from 'drizzle-orm'
import { appPlanLimit } from '#/lib/app-plan-limits'
import { isPlanId, memberLimitOf, type Plan, type PlanId, planById } from '#/lib/plans'
import { serverApps } from '../apps.gen'
import type { Database } from '../db/client'
import { aiUsage, billingSubscriptions, invitations, members } from '../db/schema'

/** Subscription states that still grant the plan (past_due: the provider is retrying the payment). */
export const grantingStatuses = ['trialing', 'active', 'past_due'] as const

export interface OrganizationPlan {
  plan: Plan
  seats: number
}

/** The organization's subscription that grants its plan now, if it has one. */
export async function grantingSubscription(db: Database, organizationId: string) {
  const [subscription] = await db
    .select()
    .from(billingSubscriptions)
    .where(
      and(
        eq(billingSubscriptions.organizationId, organizationId),
        inArray(billingSubscriptions.status, [...grantingStatuses]),
      ),
    )
    .orderBy(desc(billingSubscriptions.updatedAt))
    .limit(1)
  return subscription
}

/** The plan an organization has now: its granting subscription's, else Free. */
export async function organizationPlan(db: Database, organizationId: string): Promise<OrganizationPlan> {
  const subscription = await grantingSubscription(db, organizationId)
  const planId: PlanId = subscription && isPlanId(subscription.planId) ? subscription.planId : 'free'
  return { plan: planById(planId), seats: subscription?.seats ?? 1 }
}

/**
 * A refusal because the plan allows no more; the client shows it with a link to upgrade. An app's limit (its plans.ts)
 * has a code of its own, and may send the limit written out (`params.size`).
 */
export class PlanLimitError extends Error {
  override name = 'PlanLimitError'
  constructor(
    readonly code: `PLAN_LIMIT_${string}`,
    readonly limit: number,
    readonly planId: PlanId,
    readonly params: Readonly<Record<string, string>> = {},
  ) {
    super(`The ${planId} plan allows ${limit} ${code.slice('PLAN_LIMIT_'.length).toLowerCase().replace('_', ' ')}`)
  }
}

export async function memberLimit(db: Database, organizationId: string): Promise<{ limit: number; planId: PlanId }> {
  const { plan, seats } = await organizationPlan(db, organizationId)
  return { limit: memberLimitOf(plan, seats), planId: plan.id }
}

/** Members plus pending, unexpired invitations: the places an organization has promised. */
export async function seatsTaken(db: Database, organizationId: string): Promise<{ members: number; invited: number }> {
  const [memberRow] = await db
    .select({ value: count() })
    .from(members)
    .where(eq(members.organizationId, organizationId))
  const [invitedRow] = await db
    .select({ value: count() })
    .from(invitations)
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.status, 'pending'),
        gt(invitations.expiresAt, new Date()),
      ),
    )
  return { members: memberRow?.value ?? 0, invited: invitedRow?.value ?? 0 }
}

/** Throws PlanLimitError when one more invitation would promise more places than the plan has. */
export async function assertInvitationCapacity(db: Database, organizationId: string): Promise<void> {
  const { limit, planId } = await memberLimit(db, organizationId)
  const taken = await seatsTaken(db, organizationId)
  if (taken.members + taken.invited >= limit) throw new PlanLimitError('PLAN_LIMIT_MEMBERS', limit, planId)
}

/** How much of the installed apps' limits (their plans.ts) the organization uses, beside what its plan allows. */
export async function appPlanUsage(
  db: Database,
  organizationId: string,
  planId: PlanId,
): Promise<Record<string, { used: number; limit: number | null }>> {
  const usage: Record<string, { used: number; limit: number | null }> = {}
  for (const app of serverApps) {
    if (!app.planUsage) continue
    const used = await (await app.planUsage())(db, organizationId)
    for (const [name, amount] of Object.entries(used)) {
      const limit = appPlanLimit(name)
      if (limit) usage[name] = { used: amount, limit: limit.perPlan[planId] }
    }
  }
  return usage
}

export function usageMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7)
}

export async function aiRequestsThisMonth(db: Database, organizationId: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ requests: aiUsage.requests })
    .from(aiUsage)
    .where(and(eq(aiUsage.organizationId, organizationId), eq(aiUsage.month, usageMonth(now))))
  return row?.requests ?? 0
}

/**
 * Counts one AI request against the month's allowance, in one statement so concurrent requests cannot overshoot it;
 * throws PlanLimitError once the allowance is used up. Returns the month's count so far.
 */
export async function recordAiRequest(db: Database, organizationId: string, now = new Date()): Promise<number> {
  const { plan } = await organizationPlan(db, organizationId)
  const allowance = plan.limits.aiRequestsPerMonth
  const counted = await db
    .insert(aiUsage)
    .values({ organizationId, month: usageMonth(now), requests: 1 })
    .onConflictDoUpdate({
      target: [aiUsage.organizationId, aiUsage.month],
      set: { requests: sql`${aiUsage.requests} + 1` },
      setWhere: sql`${aiUsage.requests} < ${allowance}`,
    })
    .returning({ requests: aiUsage.requests })
  const requests = counted[0]?.requests
  if (requests === undefined || allowance < 1) throw new PlanLimitError('PLAN_LIMIT_AI_REQUESTS', allowance, plan.id)
  return requests
}

/**
 * The first of these organizations whose subscription still renews: deleting it would leave the provider charging
 * for an organization that is gone, so it is cancelled at period end first.
 */
export async function organizationWithRenewingSubscription(
  db: Pick<Database, 'select'>,
  organizationIds: string[],
): Promise<string | undefined> {
  if (organizationIds.length === 0) return undefined
  const [row] = await db
    .select({ organizationId: billingSubscriptions.organizationId })
    .from(billingSubscriptions)
    .where(
      and(
        inArray(billingSubscriptions.organizationId, organizationIds),
        inArray(billingSubscriptions.status, [...grantingStatuses]),
        eq(billingSubscriptions.cancelAtPeriodEnd, false),
      ),
    )
    .limit(1)
  return row?.organizationId
}

/** An organization that would be deleted still has a renewing subscription. */
export class RenewingSubscriptionError extends Error {
  override name = 'RenewingSubscriptionError'
}

export const renewingSubscriptionRefusal = {
  code: 'ORGANIZATION_HAS_SUBSCRIPTION',
  message: 'Cancel the subscription (at period end) before deleting the organization',
} as const
