import { byDay, type Granularity, previousPeriod, seriesWithPrevious, total } from '#/features/dashboard/server'
import type { Database } from '#/server/db/client'
import { type AnalyticsDimension, type DailyAggregate, readDailyAggregates } from './aggregates'

/** The breakdowns the dashboard lists, in the order it shows them. */
export const breakdownDimensions = [
  'page',
  'referrer',
  'utm_campaign',
  'utm_source',
  'utm_medium',
  'language',
  'browser',
  'os',
  'device',
  'screen',
] as const satisfies readonly AnalyticsDimension[]
export type BreakdownDimension = (typeof breakdownDimensions)[number]

/** Rows per breakdown: the top of each list is what a reader acts on; the rest is noise at a glance. */
export const breakdownRowLimit = 10

export interface BreakdownRow {
  /** '' is a direct visit (referrer) or an unknown language, browser, OS, device or screen. */
  value: string
  visitors: number
  pageviews: number
  /** Average time on page; only pages have it (time is measured per page), null where nothing was measured. */
  avgTimeOnPageMs: number | null
}

interface Sums {
  visitors: number
  pageviews: number
  durationMs: number
  leaves: number
}

const averageOf = (sums: Pick<Sums, 'durationMs' | 'leaves'>) =>
  sums.leaves > 0 ? Math.round(sums.durationMs / sums.leaves) : null

const trafficKeys = ['visitors', 'pageviews', 'durationMs', 'leaves'] as const

/**
 * How old the numbers of days not rolled up yet (today) may be: each server scans their raw events at most this often
 * per range, rather than once per Dashboard request; live visitors stay live.
 */
export const openDayStalenessMs = 5_000

/**
 * Visitors and page views over the range and the period before it, and the top values of each breakdown over the
 * range. Visitors are per day (visitor ids rotate daily), so a bucket's or a range's visitors are the sum of its days'.
 */
export async function readTraffic(
  db: Database,
  range: { from: string; to: string; granularity: Granularity; timeZone: string },
) {
  const previous = previousPeriod(range.from, range.to)
  const [totals, breakdownRows] = await Promise.all([
    readDailyAggregates(db, {
      timeZone: range.timeZone,
      fromDay: previous.from,
      toDay: range.to,
      dimensions: ['total'],
      maxStalenessMs: openDayStalenessMs,
    }),
    readDailyAggregates(db, {
      timeZone: range.timeZone,
      fromDay: range.from,
      toDay: range.to,
      dimensions: breakdownDimensions,
      maxStalenessMs: openDayStalenessMs,
    }),
  ])

  const perDay = byDay(totals, trafficKeys)
  const { series, previousSeries } = seriesWithPrevious(range, perDay, trafficKeys)
  const summary = (rows: typeof series) => {
    const sums = {
      visitors: total(rows, (row) => row.visitors),
      pageviews: total(rows, (row) => row.pageviews),
      durationMs: total(rows, (row) => row.durationMs),
      leaves: total(rows, (row) => row.leaves),
    }
    return { visitors: sums.visitors, pageviews: sums.pageviews, avgTimeOnPageMs: averageOf(sums) }
  }
  const point = (row: (typeof series)[number]) => ({
    start: row.start,
    visitors: row.visitors,
    pageviews: row.pageviews,
  })

  return {
    traffic: {
      previousRange: previous,
      series: series.map(point),
      previousSeries: previousSeries.map(point),
      totals: summary(series),
      previousTotals: summary(previousSeries),
    },
    breakdowns: topValues(breakdownRows),
  }
}

/** Each breakdown's values summed over the range's days, the top ones by visitors (then page views, then name). */
function topValues(rows: readonly DailyAggregate[]) {
  const sums = new Map<BreakdownDimension, Map<string, Sums>>(
    breakdownDimensions.map((dimension) => [dimension, new Map()]),
  )
  for (const row of rows) {
    const values = sums.get(row.dimension as BreakdownDimension)
    if (!values) continue
    const sum = values.get(row.value) ?? { visitors: 0, pageviews: 0, durationMs: 0, leaves: 0 }
    sum.visitors += row.visitors
    sum.pageviews += row.pageviews
    sum.durationMs += row.durationMs
    sum.leaves += row.leaves
    values.set(row.value, sum)
  }
  return Object.fromEntries(
    breakdownDimensions.map((dimension) => {
      const list: BreakdownRow[] = [...(sums.get(dimension) ?? new Map<string, Sums>())]
        // A page only viewed before the range but left within it has time and no views: not a page of the range.
        .filter(([, sum]) => sum.pageviews > 0)
        .map(([value, sum]) => ({
          value,
          visitors: sum.visitors,
          pageviews: sum.pageviews,
          avgTimeOnPageMs: averageOf(sum),
        }))
        .sort(
          (a, b) =>
            b.visitors - a.visitors ||
            b.pageviews - a.pageviews ||
            (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
        )
        .slice(0, breakdownRowLimit)
      return [dimension, list]
    }),
  ) as Record<BreakdownDimension, BreakdownRow[]>
}
