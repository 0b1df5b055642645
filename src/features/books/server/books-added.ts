import { and, eq, sql } from 'drizzle-orm'
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
import { bookAdditions } from './schema'

/**
 * The books an organization added per bucket: every book created in the range, even one deleted since (the chart
 * shows the work done), with how many of them are deleted, so the total agrees with the live count in the usage.
 * Read from book_additions (schema.ts), whose quarter hours each fall on one day in any time zone.
 */
export async function readBooksAdded(
  db: Database,
  organizationId: string,
  range: { from: string; to: string; granularity: Granularity; timeZone: string },
) {
  // The quarter hours kept by the triggers on books: a handful of rows a day, however many books were added.
  const rows = await db
    .select({
      day: dayIn(bookAdditions.slot, range.timeZone),
      count: sql<number>`sum(${bookAdditions.added})`.mapWith(Number),
      deleted: sql<number>`sum(${bookAdditions.deleted})`.mapWith(Number),
    })
    .from(bookAdditions)
    .where(
      and(
        eq(bookAdditions.organizationId, organizationId),
        withinDays(bookAdditions.slot, range.timeZone, range.from, range.to),
      ),
    )
    .groupBy(sql`1`)
  const series = bucketed(bucketsOf(range.from, range.to, range.granularity), byDay(rows, countKeys), countKeys)
  return {
    total: total(series, (row) => row.count),
    deletedSince: rows.reduce((sum, row) => sum + row.deleted, 0),
    series,
  }
}
