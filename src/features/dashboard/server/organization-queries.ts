import { memberLimitOf } from '#/lib/plans'
import { aiTokensThisMonth } from '#/server/ai/metering'
import type { Database } from '#/server/db/client'
import { aiRequestsThisMonth, appPlanUsage, organizationPlan, seatsTaken, shownLimit } from '#/server/plan-limits'

/**
 * One organization's own numbers: its members, and its plan with what it uses of each limit (the installed apps'
 * among them). The apps' own numbers are their sections' (organizationSections).
 */
export async function readOrganizationNumbers(db: Database, organization: { id: string; name: string }) {
  const { plan, seats, interval, status } = await organizationPlan(db, organization.id)
  const [taken, aiRequests, aiTokens, appLimits] = await Promise.all([
    seatsTaken(db, organization.id),
    aiRequestsThisMonth(db, organization.id),
    aiTokensThisMonth(db, organization.id),
    appPlanUsage(db, organization.id, plan.id),
  ])
  return {
    organization: { id: organization.id, name: organization.name },
    members: taken.members,
    pendingInvitations: taken.invited,
    plan: {
      planId: plan.id,
      seats: shownLimit(seats),
      interval,
      status,
    },
    usage: {
      // Pending invitations hold places too: the limit refuses an invitation once members plus invitations reach it.
      members: { used: taken.members + taken.invited, limit: shownLimit(memberLimitOf(plan, seats)) },
      aiRequests: { used: aiRequests, limit: plan.limits.aiRequestsPerMonth },
      aiTokens,
    },
    /** The installed apps' limits (their plans.ts), by name. */
    appUsage: appLimits,
  }
}
