import { and, count, eq, gt, sql } from 'drizzle-orm'
import { appPlanLimit } from '#/lib/app-plan-limits'
import { isPlanId, memberLimitOf, type Plan, type PlanId, planById, plans } from '#/lib/plans'
import { serverApps } from './apps.gen'
import type { Database } from './db/client'
import { aiUsage, invitations, members } from './db/schema'

/** What every organization has when no installed app sells plans. */
const largestPlan = plans.at(-1) ?? planById('free')

export interface OrganizationPlan {
  plan: Plan
  seats: number
  /** How the plan is paid for, as the app that grants it says (null: Free, or no such app). */
  interval: string | null
  status: string | null
}

/**
 * The plan an organization has now: as the installed app that sells plans says (billing: its subscription that grants
 * one), else Free. Without such an app nothing is sold, so nothing is held back for a sale: every organization has the
 * largest plan (the last of src/lib/plans.ts), with no limit on its members.
 */
export async function organizationPlan(db: Database, organizationId: string): Promise<OrganizationPlan> {
  const source = serverApps.find((app) => app.organizationPlan)?.organizationPlan
  if (!source) return { plan: largestPlan, seats: Number.POSITIVE_INFINITY, interval: null, status: null }
  const granted = await (await source())(db, organizationId)
  if (!granted || !isPlanId(granted.planId)) return { plan: planById('free'), seats: 1, interval: null, status: null }
  return { plan: planById(granted.planId), seats: granted.seats, interval: granted.interval, status: granted.status }
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

/**
 * The organization's plan and what it uses of each limit beside what the plan allows: the installed apps' limits (their
 * plans.ts) by name, then the core's. Every member may read it, so that an action the plan would refuse is shown as
 * limited first.
 */
export async function planLimitsOf(db: Database, organizationId: string) {
  const { plan, seats } = await organizationPlan(db, organizationId)
  const [taken, aiRequests, appLimits] = await Promise.all([
    seatsTaken(db, organizationId),
    aiRequestsThisMonth(db, organizationId),
    appPlanUsage(db, organizationId, plan.id),
  ])
  const limits: typeof appLimits & {
    members: { used: number; limit: number | null }
    aiRequests: { used: number; limit: number }
  } = {
    ...appLimits,
    members: { used: taken.members + taken.invited, limit: shownLimit(memberLimitOf(plan, seats)) },
    aiRequests: { used: aiRequests, limit: plan.limits.aiRequestsPerMonth },
  }
  return { planId: plan.id, limits }
}

/** A limit as the pages show it: null for none (no app sells plans, so members are not limited). */
export function shownLimit(limit: number): number | null {
  return Number.isFinite(limit) ? limit : null
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
