import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

// ── First-party analytics (src/features/analytics): no IP address and no user agent is ever stored ──────────────

/**
 * One beacon: a page view, or the time spent on it when the visitor left. Kept 30 days, then only the daily
 * aggregates remain. `visitorId` is a hash that rotates daily with a secret salt (see `analyticsSalts`).
 */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind', { enum: ['pageview', 'leave'] }).notNull(),
    visitorId: text('visitor_id').notNull(),
    /** Chosen by the page for each view; ties a `leave` to its `pageview`. */
    pageViewId: text('page_view_id').notNull(),
    path: text('path').notNull(),
    referrerHost: text('referrer_host'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    language: text('language'),
    screen: text('screen', { enum: ['phone', 'tablet', 'laptop', 'desktop'] }),
    browser: text('browser'),
    os: text('os'),
    device: text('device', { enum: ['desktop', 'mobile', 'tablet'] }),
    durationMs: integer('duration_ms'),
  },
  (table) => [
    index('analytics_events_occurred_at_idx').on(table.occurredAt),
    check('analytics_events_kind', sql`${table.kind} in ('pageview', 'leave')`),
  ],
)

/**
 * Daily aggregates per dimension (`total`, `page`, `referrer`, `utm_campaign`, …) and value, for the dashboard's
 * time zone at the time of the rollup; kept forever. Visitors are per day by design: ids rotate every day.
 */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    value: text('value').notNull(),
    visitors: integer('visitors').notNull(),
    pageviews: integer('pageviews').notNull(),
    /** Time on page summed over the `leave` beacons of the day, and how many there were. */
    durationMs: bigint('duration_ms', { mode: 'number' }).notNull().default(0),
    leaves: integer('leaves').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.dimension, table.value] })],
)

/** Days whose aggregates are in `analyticsDaily`, and the time zone they were cut in. */
export const analyticsRolledDays = pgTable('analytics_rolled_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  timeZone: text('time_zone').notNull(),
  rolledAt: timestamp('rolled_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Each day's secret salt for visitor ids; deleted once the day is over, so old ids cannot be recomputed. */
export const analyticsSalts = pgTable('analytics_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** When a scheduled job last ran, so several app servers run it once per interval. */
export const scheduledJobRuns = pgTable('scheduled_job_runs', {
  name: text('name').primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }).notNull(),
})
