import { and, count, eq, sql } from 'drizzle-orm'
import { memberLimitOf } from '#/lib/plans'
import { aiTokensThisMonth } from '#/server/ai/metering'
import {
  aiRequestsThisMonth,
  grantingSubscription,
  liveBookCount,
  organizationPlan,
  seatsTaken,
} from '#/server/billing/plan-limits'
import type { Database } from '#/server/db/client'
import { books } from '#/server/db/schema'
import { bucketsOf, type Granularity } from '../date-range'
import { bucketed, byDay, countKeys, dayIn, total, withinDays } from './day-series'

/**
 * One organization's own numbers: its members, the books added per bucket (every book created in the range, even one
 * deleted since: the chart shows the work done), and its plan with what it uses of each limit.
 */
export async function readOrganizationNumbers(
  db: Database,
  organization: { id: string; name: string },
  range: { from: string; to: string; granularity: Granularity; timeZone: string },
) {
  const [bookRows, { plan, seats }, subscription, taken, liveBooks, aiRequests, aiTokens] = await Promise.all([
    db
      .select({
        day: dayIn(books.createdAt, range.timeZone),
        count: count(),
        deleted: sql<number>`count(*) filter (where ${books.deletedAt} is not null)`.mapWith(Number),
      })
      .from(books)
      .where(
        and(
          eq(books.organizationId, organization.id),
          withinDays(books.createdAt, range.timeZone, range.from, range.to),
        ),
      )
      .groupBy(sql`1`),
    organizationPlan(db, organization.id),
    grantingSubscription(db, organization.id),
    seatsTaken(db, organization.id),
    liveBookCount(db, organization.id),
    aiRequestsThisMonth(db, organization.id),
    aiTokensThisMonth(db, organization.id),
  ])
  const series = bucketed(bucketsOf(range.from, range.to, range.granularity), byDay(bookRows, countKeys), countKeys)
  return {
    organization: { id: organization.id, name: organization.name },
    members: taken.members,
    pendingInvitations: taken.invited,
    booksAdded: {
      total: total(series, (row) => row.count),
      // Said beside the total, so that it agrees with the live count on Billing and in the usage below.
      deletedSince: bookRows.reduce((sum, row) => sum + row.deleted, 0),
      series,
    },
    plan: {
      planId: plan.id,
      seats,
      interval: subscription?.interval ?? null,
      status: subscription?.status ?? null,
    },
    usage: {
      books: { used: liveBooks, limit: plan.limits.books },
      // Pending invitations hold places too: the limit refuses an invitation once members plus invitations reach it.
      members: { used: taken.members + taken.invited, limit: memberLimitOf(plan, seats) },
      aiRequests: { used: aiRequests, limit: plan.limits.aiRequestsPerMonth },
      aiTokens,
    },
  }
}
