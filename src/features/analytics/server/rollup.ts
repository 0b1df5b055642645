import { sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { sqlAffectedRows, sqlRows } from '#/server/db/raw-sql'
import { aggregateRawEvents, dayIn } from './aggregates'

/** Raw events are kept this long; their daily aggregates forever. */
export const rawEventRetentionDays = 30
/** How often the job may run, across every app server sharing the database. */
export const rollupIntervalMs = 5 * 60_000
/**
 * A day is rolled up only this long after it ended in the dashboard's time zone, so beacons that arrived before
 * midnight but were still in the writer's queue (flushed every second) are in it.
 */
export const rollupGraceMs = 10 * 60_000
/** An arbitrary, fixed number naming the analytics job among PostgreSQL advisory locks. */
export const rollupLockKey = 4_827_301_967
const jobName = 'analytics-rollup'

export interface RollupOutcome {
  ran: boolean
  /** Days whose aggregates were (re)written. */
  rolledDays: string[]
  deletedEvents: number
  deletedSalts: number
}

/**
 * Rolls every complete day (before today in `timeZone`, once `rollupGraceMs` has passed) that has raw events and is not rolled up yet into
 * `analytics_daily`, then deletes raw events past retention and the salts of past days. One transaction holding
 * an advisory lock, plus a last-run record: when several app servers call it, one does the work per interval and the
 * others return `ran: false`. `force` ignores the interval (tests, and the first run after a time-zone change).
 */
export async function runAnalyticsRollup(
  db: Database,
  options: { timeZone: string; now?: Date; force?: boolean },
): Promise<RollupOutcome> {
  const now = options.now ?? new Date()
  const { timeZone } = options
  const today = dayIn(timeZone, now)
  const firstOpenDay = dayIn(timeZone, new Date(now.getTime() - rollupGraceMs))
  return db.transaction(async (tx) => {
    const skipped = { ran: false, rolledDays: [], deletedEvents: 0, deletedSalts: 0 }
    const [lock] = await sqlRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${rollupLockKey}) as locked`,
    )
    if (!lock?.locked) return skipped
    const due = await sqlRows<{ name: string }>(
      tx,
      sql`
      insert into scheduled_job_runs (name, last_run_at) values (${jobName}, ${now})
      on conflict (name) do update set last_run_at = excluded.last_run_at
      where ${options.force === true} or scheduled_job_runs.last_run_at <= ${new Date(now.getTime() - rollupIntervalMs + 1000)}
      returning name
    `,
    )
    if (due.length === 0) return skipped

    // After a time-zone change, the days cut in the old zone whose raw events are all still kept are cut again;
    // older ones keep the zone they were cut in (their raw events are gone).
    const recutFrom = sql`(${today}::date - ${rawEventRetentionDays - 2}::int)`
    await tx.execute(sql`
      delete from analytics_daily where day >= ${recutFrom}
        and day in (select day from analytics_rolled_days where time_zone <> ${timeZone})
    `)
    await tx.execute(sql`delete from analytics_rolled_days where day >= ${recutFrom} and time_zone <> ${timeZone}`)
    const pending = await sqlRows<{ day: string }>(
      tx,
      sql`
      select distinct to_char(occurred_at at time zone ${timeZone}, 'YYYY-MM-DD') as day
      from analytics_events
      where occurred_at < (${firstOpenDay}::date::timestamp at time zone ${timeZone})
      except
      select to_char(day, 'YYYY-MM-DD') from analytics_rolled_days
      order by day
    `,
    )
    const rolledDays = pending.map((row) => row.day)
    for (const day of rolledDays) {
      const aggregates = await aggregateRawEvents(tx, {
        timeZone,
        fromDay: day,
        toDay: day,
        onlyUnrolled: false,
      })
      await tx.execute(sql`delete from analytics_daily where day = ${day}::date`)
      for (let start = 0; start < aggregates.length; start += 500) {
        const values = aggregates
          .slice(start, start + 500)
          .map(
            (row) =>
              sql`(${row.day}::date, ${row.dimension}, ${row.value}, ${row.visitors}, ${row.pageviews}, ${row.duration_ms}, ${row.leaves})`,
          )
        await tx.execute(sql`
          insert into analytics_daily (day, dimension, value, visitors, pageviews, duration_ms, leaves)
          values ${sql.join(values, sql`, `)}
        `)
      }
      await tx.execute(sql`
        insert into analytics_rolled_days (day, time_zone, rolled_at) values (${day}::date, ${timeZone}, ${now})
        on conflict (day) do update set time_zone = excluded.time_zone, rolled_at = excluded.rolled_at
      `)
    }

    // Every day older than the retention is rolled up by now (it is before today), so nothing is lost.
    const retentionCutoff = new Date(now.getTime() - rawEventRetentionDays * 86_400_000)
    const deletedEvents = await sqlAffectedRows(
      tx,
      sql`delete from analytics_events where occurred_at < ${retentionCutoff}`,
    )
    const deletedSalts = await sqlAffectedRows(tx, sql`delete from analytics_salts where day < ${today}::date`)
    return { ran: true, rolledDays, deletedEvents, deletedSalts }
  })
}
