import { sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { sqlRows } from '#/server/db/raw-sql'

export const analyticsDimensions = [
  'total',
  'page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'language',
  'browser',
  'os',
  'device',
  'screen',
] as const
export type AnalyticsDimension = (typeof analyticsDimensions)[number]

export interface DailyAggregate {
  /** YYYY-MM-DD in the dashboard's time zone. */
  day: string
  dimension: AnalyticsDimension
  /** '' is the total's value, a direct visit's referrer, or an unknown browser, OS, language… */
  value: string
  visitors: number
  pageviews: number
  durationMs: number
  leaves: number
}

/** A day (YYYY-MM-DD) as the calendar in `timeZone` shows it at `instant`. */
export function dayIn(timeZone: string, instant: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  )
}

/**
 * The one definition of how raw events become daily numbers, used by the rollup and for days not yet rolled up.
 * Each event counts once in every dimension it has a value for: `leave` beacons only add time on page to the total
 * and their page; a referrer only counts for the first view of a page load (`referrer_host` is null otherwise).
 */
interface RawAggregateRow {
  day: string
  dimension: AnalyticsDimension
  value: string
  visitors: number
  pageviews: number
  duration_ms: number
  leaves: number
}

export function aggregateRawEvents(
  db: Pick<Database, 'execute'>,
  options: { timeZone: string; fromDay: string; toDay: string; onlyUnrolled: boolean; dimensions?: readonly string[] },
) {
  const { timeZone, fromDay, toDay } = options
  const dimensions = options.dimensions ?? analyticsDimensions
  return sqlRows<RawAggregateRow>(
    db,
    sql`
    with events as (
      select e.*, to_char(e.occurred_at at time zone ${timeZone}, 'YYYY-MM-DD') as day
      from analytics_events e
      where e.occurred_at >= (${fromDay}::date::timestamp at time zone ${timeZone})
        and e.occurred_at < ((${toDay}::date + 1)::timestamp at time zone ${timeZone})
    )
    select events.day, d.dimension, d.value,
      (count(distinct events.visitor_id) filter (where events.kind = 'pageview'))::int as visitors,
      (count(*) filter (where events.kind = 'pageview'))::int as pageviews,
      coalesce(sum(events.duration_ms) filter (where events.kind = 'leave'), 0)::bigint as duration_ms,
      (count(distinct events.page_view_id) filter (where events.kind = 'leave'))::int as leaves
    from events
    cross join lateral (values
      ('total', ''),
      ('page', events.path),
      ('referrer', events.referrer_host),
      ('utm_source', events.utm_source),
      ('utm_medium', events.utm_medium),
      ('utm_campaign', events.utm_campaign),
      ('language', coalesce(events.language, '')),
      ('browser', coalesce(events.browser, '')),
      ('os', coalesce(events.os, '')),
      ('device', coalesce(events.device, '')),
      ('screen', coalesce(events.screen, ''))
    ) as d(dimension, value)
    where d.value is not null
      and (events.kind = 'pageview' or d.dimension in ('total', 'page'))
      and d.dimension in (${sql.join(
        dimensions.map((dimension) => sql`${dimension}`),
        sql`, `,
      )})
      ${options.onlyUnrolled ? sql`and events.day::date not in (select day from analytics_rolled_days)` : sql``}
    group by events.day, d.dimension, d.value
  `,
  )
}

/**
 * Daily numbers for [fromDay, toDay] in the dashboard's time zone: rolled-up days from `analytics_daily`, the rest
 * (today, and days the job has not reached yet) from the raw events. Visitors are per day by design (ids rotate
 * daily), so a range's visitors are the sum of its days'.
 *
 * `maxStalenessMs` lets the raw part come from this server's snapshot of it when that is younger: the raw part is a
 * scan of every event of the open days (400 ms for 11,000 page views on the embedded database), which a dashboard
 * must not pay per request. An older snapshot is still answered while one refresh runs in the background; without
 * `maxStalenessMs` the numbers are exact to the last written event.
 */
export async function readDailyAggregates(
  db: Database,
  options: {
    timeZone: string
    fromDay: string
    toDay: string
    dimensions?: readonly AnalyticsDimension[]
    maxStalenessMs?: number
  },
): Promise<DailyAggregate[]> {
  const dimensions = options.dimensions ?? analyticsDimensions
  const dimensionList = sql.join(
    dimensions.map((dimension) => sql`${dimension}`),
    sql`, `,
  )
  const rawOptions = { ...options, dimensions, onlyUnrolled: true }
  const [rolled, rolledDays, raw] = await Promise.all([
    sqlRows<RawAggregateRow>(
      db,
      sql`
        select to_char(day, 'YYYY-MM-DD') as day, dimension, value, visitors, pageviews, duration_ms, leaves
        from analytics_daily
        where day between ${options.fromDay}::date and ${options.toDay}::date and dimension in (${dimensionList})
      `,
    ),
    sqlRows<{ day: string }>(
      db,
      sql`
        select to_char(day, 'YYYY-MM-DD') as day from analytics_rolled_days
        where day between ${options.fromDay}::date and ${options.toDay}::date
      `,
    ),
    options.maxStalenessMs
      ? openDaySnapshot(db, rawOptions, options.maxStalenessMs)
      : aggregateRawEvents(db, rawOptions),
  ])
  // A snapshot may be older than the rollup of one of its days: that day's numbers are the rollup's now.
  const rolledSet = new Set(rolledDays.map((row) => row.day))
  return [...rolled, ...raw.filter((row) => !rolledSet.has(row.day))].map((row) => ({
    day: row.day,
    dimension: row.dimension,
    value: row.value,
    visitors: Number(row.visitors),
    pageviews: Number(row.pageviews),
    durationMs: Number(row.duration_ms),
    leaves: Number(row.leaves),
  }))
}

interface OpenDaySnapshot {
  rows: RawAggregateRow[] | null
  takenAt: number
  refreshing: Promise<RawAggregateRow[]> | null
}

/** Snapshots per database and question; a few ranges are asked for, so a small bound is plenty. */
const openDaySnapshots = new WeakMap<object, Map<string, OpenDaySnapshot>>()
const snapshotsPerDatabase = 64

/** Drops this server's snapshots, for events written behind the event writer's back (a data import, tests). */
export function forgetOpenDaySnapshots(db: Database): void {
  openDaySnapshots.delete(db)
}

/**
 * The raw part of `readDailyAggregates` from this server's memory when younger than `maxStalenessMs`; when older, the
 * old numbers at once and one refresh behind them (only the first question ever waits for the scan).
 */
function openDaySnapshot(
  db: Database,
  options: Parameters<typeof aggregateRawEvents>[1],
  maxStalenessMs: number,
): Promise<RawAggregateRow[]> {
  let snapshots = openDaySnapshots.get(db)
  if (!snapshots) {
    snapshots = new Map()
    openDaySnapshots.set(db, snapshots)
  }
  const key = JSON.stringify([options.timeZone, options.fromDay, options.toDay, options.dimensions])
  let snapshot = snapshots.get(key)
  if (!snapshot) {
    if (snapshots.size >= snapshotsPerDatabase) snapshots.delete(snapshots.keys().next().value as string)
    snapshot = { rows: null, takenAt: 0, refreshing: null }
    snapshots.set(key, snapshot)
  }
  const current = snapshot
  if (current.rows && Date.now() - current.takenAt < maxStalenessMs) return Promise.resolve(current.rows)
  if (!current.refreshing) {
    const startedAt = Date.now()
    current.refreshing = aggregateRawEvents(db, options)
      .then((rows) => {
        current.rows = rows
        current.takenAt = startedAt
        return rows
      })
      .finally(() => {
        current.refreshing = null
      })
    // A failed background refresh is retried by the next question; the one waiting for it sees the error.
    if (current.rows) current.refreshing.catch(() => undefined)
  }
  return current.rows ? Promise.resolve(current.rows) : (current.refreshing as Promise<RawAggregateRow[]>)
}

/** Distinct visitors seen in the last `minutes` minutes (page views and time-on-page beacons alike). */
export async function countLiveVisitors(db: Database, minutes = 5): Promise<number> {
  const [row] = await sqlRows<{ visitors: number }>(
    db,
    sql`
      select count(distinct visitor_id)::int as visitors from analytics_events
      where occurred_at > now() - make_interval(mins => ${minutes})
    `,
  )
  return Number(row?.visitors ?? 0)
}
