import { and, count, eq, sql } from 'drizzle-orm'
import {
  bucketed,
  bucketsOf,
  byDay,
  countKeys,
  dayIn,
  type Granularity,
  total,
  withinDays,
} from '#/features/dashboard/server'
import type { Database } from '#/server/db/client'
import { books } from './schema'

/**
 * The books an organization added per bucket: every book created in the range, even one deleted since (the chart
 * shows the work done), with how many of them are deleted, so the total agrees with the live count in the usage.
 */
export async function readBooksAdded(
  db: Database,
  organizationId: string,
  range: { from: string; to: string; granularity: Granularity; timeZone: string },
) {
  const rows = await db
    .select({
      day: dayIn(books.createdAt, range.timeZone),
      count: count(),
      deleted: sql<number>`count(*) filter (where ${books.deletedAt} is not null)`.mapWith(Number),
    })
    .from(books)
    .where(
      and(eq(books.organizationId, organizationId), withinDays(books.createdAt, range.timeZone, range.from, range.to)),
    )
    .groupBy(sql`1`)
  const series = bucketed(bucketsOf(range.from, range.to, range.granularity), byDay(rows, countKeys), countKeys)
  return {
    total: total(series, (row) => row.count),
    deletedSince: rows.reduce((sum, row) => sum + row.deleted, 0),
    series,
  }
}
