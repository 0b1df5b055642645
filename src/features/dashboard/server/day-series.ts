import { type AnyColumn, type SQL, sql } from 'drizzle-orm'
import { addDays, type Bucket, bucketsOf, type Granularity, rangeLength } from '../date-range'

/** The calendar day (YYYY-MM-DD) a timestamp falls on in `timeZone`. */
export function dayIn(column: AnyColumn | SQL, timeZone: string): SQL<string> {
  return sql<string>`to_char(${column} at time zone ${timeZone}, 'YYYY-MM-DD')`
}

/** The timestamp falls on a day from `from` to `to` (both included) in `timeZone`; uses an index on the column. */
export function withinDays(column: AnyColumn | SQL, timeZone: string, from: string, to: string): SQL {
  return sql`${column} >= (${from}::date::timestamp at time zone ${timeZone})
    and ${column} < ((${to}::date + 1)::timestamp at time zone ${timeZone})`
}

type Numbers<Key extends string> = Record<Key, number>

/**
 * Sums per-day numbers into the range's buckets; a day without a row counts as zeros, so every bucket of the range
 * is present (a chart of a quiet week shows the quiet days).
 */
export function bucketed<Key extends string>(
  buckets: Bucket[],
  perDay: ReadonlyMap<string, Numbers<Key>>,
  keys: readonly Key[],
  shiftDays = 0,
): ({ start: string } & Numbers<Key>)[] {
  return buckets.map((bucket) => {
    const sums = Object.fromEntries(keys.map((key) => [key, 0])) as Numbers<Key>
    for (const day of bucket.days) {
      const row = perDay.get(addDays(day, shiftDays))
      if (!row) continue
      for (const key of keys) sums[key] += row[key]
    }
    return { start: addDays(bucket.start, shiftDays), ...sums }
  })
}

/** Per-day rows (`day` plus numbers) as a map, adding up rows of the same day. */
export function byDay<Key extends string>(
  rows: readonly ({ day: string } & Numbers<Key>)[],
  keys: readonly Key[],
): Map<string, Numbers<Key>> {
  const map = new Map<string, Numbers<Key>>()
  for (const row of rows) {
    const sums = map.get(row.day) ?? (Object.fromEntries(keys.map((key) => [key, 0])) as Numbers<Key>)
    for (const key of keys) sums[key] += Number(row[key])
    map.set(row.day, sums)
  }
  return map
}

/** A range's series, and the previous period's aligned with it bucket by bucket (shifted back by the range's length). */
export function seriesWithPrevious<Key extends string>(
  range: { from: string; to: string; granularity: Granularity },
  perDay: ReadonlyMap<string, Numbers<Key>>,
  keys: readonly Key[],
) {
  const buckets = bucketsOf(range.from, range.to, range.granularity)
  return {
    series: bucketed(buckets, perDay, keys),
    previousSeries: bucketed(buckets, perDay, keys, -rangeLength(range.from, range.to)),
  }
}

/** The sum of one number over a series. */
export function total<Row>(rows: readonly Row[], pick: (row: Row) => number): number {
  return rows.reduce((sum, row) => sum + pick(row), 0)
}

/** The one number of a counting series (sign-ups, books added). */
export const countKeys = ['count'] as const
