import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { MousePointerClickIcon } from 'lucide-react'
import { EmptyState } from '#/components/empty-state'
import {
  ChartPanel,
  csvFileName,
  dashboardInputOf,
  formatBucket,
  formatCount,
  formatDay,
  formatDuration,
  KpiCard,
  KpiGrid,
  LoadError,
  SectionSkeleton,
  type TableColumn,
  TrafficLines,
  type TrafficPoint,
} from '#/features/dashboard'
import type { DashboardSectionProps } from '#/lib/app-manifest'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import type { TrafficNumbers } from '../traffic-numbers'
import { BreakdownCard, type BreakdownDimension } from './breakdown-card'

/** How often the numbers refresh while the Dashboard is open: live visitors are "the last five minutes". */
const refreshMs = 60_000

/** The Dashboard's traffic section (console.ts): its own query, refreshed while the page is open. */
export function TrafficDashboardSection({ range }: DashboardSectionProps) {
  const trpc = useTRPC()
  const traffic = useQuery({
    ...trpc.analytics.traffic.queryOptions(dashboardInputOf(range)),
    // A new range keeps the old numbers on screen until the new ones arrive, rather than flashing skeletons.
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  })
  if (traffic.error) return <LoadError error={traffic.error} />
  if (!traffic.data) return <SectionSkeleton label={m.dashboard_traffic_title()} />
  return (
    <div aria-busy={traffic.isPlaceholderData || undefined}>
      <TrafficSection data={traffic.data} />
    </div>
  )
}

/** Site traffic for app admins: headline numbers against the previous period, the chart, and every breakdown. */
function TrafficSection({ data }: { data: TrafficNumbers }) {
  const { traffic, breakdowns, range, liveVisitors, counting } = data
  const { totals, previousTotals } = traffic
  const nothingYet = totals.pageviews === 0 && previousTotals.pageviews === 0 && liveVisitors === 0

  return (
    <section aria-labelledby="dashboard-traffic-title" className="grid gap-4">
      <div>
        <h2 id="dashboard-traffic-title" className="text-lg font-semibold">
          {m.dashboard_traffic_title()}
        </h2>
        <p className="text-sm text-muted-foreground">{m.dashboard_time_zone_note({ timeZone: range.timeZone })}</p>
      </div>
      <KpiGrid>
        <KpiCard
          label={m.dashboard_kpi_visitors()}
          value={formatCount(totals.visitors)}
          testId="kpi-visitors"
          change={{ current: totals.visitors, previous: previousTotals.visitors }}
        />
        <KpiCard
          label={m.dashboard_kpi_pageviews()}
          value={formatCount(totals.pageviews)}
          testId="kpi-pageviews"
          change={{ current: totals.pageviews, previous: previousTotals.pageviews }}
        />
        <KpiCard
          label={m.dashboard_kpi_avg_time()}
          value={formatDuration(totals.avgTimeOnPageMs)}
          testId="kpi-avg-time"
          change={
            totals.avgTimeOnPageMs !== null && previousTotals.avgTimeOnPageMs !== null
              ? { current: totals.avgTimeOnPageMs, previous: previousTotals.avgTimeOnPageMs }
              : undefined
          }
        />
        <KpiCard
          label={m.dashboard_kpi_live()}
          value={formatCount(liveVisitors)}
          testId="kpi-live"
          hint={m.dashboard_kpi_live_hint()}
        />
      </KpiGrid>
      {nothingYet ? (
        <EmptyState icon={MousePointerClickIcon} title={m.dashboard_no_visits_title()}>
          <p>{m.dashboard_no_visits()}</p>
          {counting ? null : (
            <p className="mt-2">
              {m.dashboard_analytics_off()}{' '}
              <Link to="/console/configuration" className="font-medium text-primary underline-offset-4 hover:underline">
                {m.dashboard_open_configuration()}
              </Link>
            </p>
          )}
        </EmptyState>
      ) : (
        <>
          <TrafficChart data={data} />
          <div className="grid gap-4 lg:grid-cols-2">
            {(Object.keys(breakdowns) as BreakdownDimension[]).map((dimension) => (
              <BreakdownCard key={dimension} dimension={dimension} rows={breakdowns[dimension]} range={range} />
            ))}
          </div>
        </>
      )}
    </section>
  )
}

function TrafficChart({ data }: { data: TrafficNumbers }) {
  const { traffic, range } = data
  const granularity = range.granularity
  const points: TrafficPoint[] = traffic.series.map((point, index) => {
    const previous = traffic.previousSeries[index]
    return {
      ...point,
      previousStart: previous?.start ?? '',
      previousVisitors: previous?.visitors ?? 0,
      previousPageviews: previous?.pageviews ?? 0,
    }
  })
  const columns = trafficColumns(granularity)
  const summary = m.dashboard_traffic_summary({
    from: formatDay(range.from),
    to: formatDay(range.to),
    visitors: formatCount(traffic.totals.visitors),
    pageviews: formatCount(traffic.totals.pageviews),
    previousVisitors: formatCount(traffic.previousTotals.visitors),
    previousPageviews: formatCount(traffic.previousTotals.pageviews),
  })
  return (
    <ChartPanel
      title={m.dashboard_traffic_chart_title()}
      description={m.dashboard_traffic_chart_description({
        from: formatDay(traffic.previousRange.from),
        to: formatDay(traffic.previousRange.to),
      })}
      summary={summary}
      columns={columns}
      rows={points}
      rowKey={(row) => row.start}
      fileName={csvFileName('traffic', range)}
      testId="chart-traffic"
    >
      <TrafficLines points={points} granularity={granularity} />
    </ChartPanel>
  )
}

/** The chart's table and CSV: each period beside the same period before it. */
function trafficColumns(granularity: TrafficNumbers['range']['granularity']): TableColumn<TrafficPoint>[] {
  return [
    { header: m.dashboard_col_period(), cell: (row) => formatBucket(row.start, granularity), csv: (row) => row.start },
    {
      header: m.dashboard_kpi_visitors(),
      numeric: true,
      cell: (row) => formatCount(row.visitors),
      csv: (row) => row.visitors,
    },
    {
      header: m.dashboard_kpi_pageviews(),
      numeric: true,
      cell: (row) => formatCount(row.pageviews),
      csv: (row) => row.pageviews,
    },
    {
      header: m.dashboard_col_previous_period(),
      cell: (row) => formatBucket(row.previousStart, granularity),
      csv: (row) => row.previousStart,
    },
    {
      header: m.dashboard_col_previous_visitors(),
      numeric: true,
      cell: (row) => formatCount(row.previousVisitors),
      csv: (row) => row.previousVisitors,
    },
    {
      header: m.dashboard_col_previous_pageviews(),
      numeric: true,
      cell: (row) => formatCount(row.previousPageviews),
      csv: (row) => row.previousPageviews,
    },
  ]
}
