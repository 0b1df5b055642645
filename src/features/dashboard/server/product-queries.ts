import { and, count, eq, gt, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { sessions, users } from '#/server/db/schema'
import { bucketsOf, type Granularity } from '../date-range'
import { bucketed, byDay, countKeys, dayIn, total, withinDays } from './day-series'

const msPerDay = 86_400_000

/**
 * Sign-ups per bucket (accounts created on each day in the dashboard's time zone), people active in the last 7 and
 * 30 days (signed in, or used a session Better Auth refreshed, in the window) and sessions not yet expired. Guests
 * ("Continue as guest") have not signed up, so they are left out of sign-ups; they are people using the product, so
 * they count as active.
 */
export async function readProductNumbers(
  db: Database,
  range: { from: string; to: string; granularity: Granularity; timeZone: string },
  now: Date = new Date(),
) {
  const activeSince = (days: number) =>
    sql<number>`count(*) filter (where ${users.lastActiveAt} > ${new Date(now.getTime() - days * msPerDay)})`.mapWith(
      Number,
    )
  const [signUpRows, [activeRow], [sessionRow]] = await Promise.all([
    db
      .select({ day: dayIn(users.createdAt, range.timeZone), count: count() })
      .from(users)
      .where(and(eq(users.isAnonymous, false), withinDays(users.createdAt, range.timeZone, range.from, range.to)))
      // By position: the day's expression repeated would carry its own parameters, which PostgreSQL cannot match.
      .groupBy(sql`1`),
    // Both windows in one pass: on the embedded database each statement waits its turn on the one connection.
    db
      .select({ last7Days: activeSince(7), last30Days: activeSince(30) })
      .from(users)
      .where(gt(users.lastActiveAt, new Date(now.getTime() - 30 * msPerDay))),
    db.select({ value: count() }).from(sessions).where(gt(sessions.expiresAt, now)),
  ])
  const series = bucketed(bucketsOf(range.from, range.to, range.granularity), byDay(signUpRows, countKeys), countKeys)
  return {
    signUps: { total: total(series, (row) => row.count), series },
    activeUsers: { last7Days: activeRow?.last7Days ?? 0, last30Days: activeRow?.last30Days ?? 0 },
    activeSessions: sessionRow?.value ?? 0,
  }
}
