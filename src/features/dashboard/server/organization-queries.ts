import { memberLimitOf } from '#/lib/plans'
import { aiTokensThisMonth } from '#/server/ai/metering'
import {
  aiRequestsThisMonth,
  appPlanUsage,
  grantingSubscription,
  organizationPlan,
  seatsTaken,
} from '#/server/billing/plan-limits'
import type { Database } from '#/server/db/client'

/**
 * One organization's own numbers: its members, and its plan with what it uses of each limit (the installed apps'
 * among them). The apps' own numbers are their sections' (organizationSections).
 */
export async function readOrganizationNumbers(db: Database, organization: { id: string; name: string }) {
  const { plan, seats } = await organizationPlan(db, organization.id)
  const [subscription, taken, aiRequests, aiTokens, appLimits] = await Promise.all([
    grantingSubscription(db, organization.id),
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
      seats,
      interval: subscription?.interval ?? null,
      status: subscription?.status ?? null,
    },
    usage: {
      // Pending invitations hold places too: the limit refuses an invitation once members plus invitations reach it.
      members: { used: taken.members + taken.invited, limit: memberLimitOf(plan, seats) },
      aiRequests: { used: aiRequests, limit: plan.limits.aiRequestsPerMonth },
      aiTokens,
    },
    /** The installed apps' limits (their plans.ts), by name. */
    appUsage: appLimits,
  }
}
