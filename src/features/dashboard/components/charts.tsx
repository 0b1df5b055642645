// The Dashboard's drawn charts, with the charting library (recharts and its d3 parts: more than half of the console's
// JavaScript). Loaded only where a chart has something to draw, through lazy-charts.tsx: a workspace without data, and
// every other console page, never evaluates it, and a page with charts hydrates before them (issue 30).
import { Bar, BarChart, CartesianGrid, Line, LineChart, XAxis, YAxis } from 'recharts'
import {
  type ChartConfig,
  ChartContainer,
  ChartLegend,
  ChartLegendContent,
  ChartTooltip,
  ChartTooltipContent,
} from '#/components/ui/chart'
import { m } from '#/paraglide/messages'
import { formatBucket, formatBucketShort, formatCount } from '../dashboard-format'
import type { Granularity } from '../date-range'

/** The periods along the bottom of every chart over time, labelled briefly (a day, a week, a month). */
const periodAxis = (granularity: Granularity) => (
  <XAxis
    dataKey="start"
    tickLine={false}
    axisLine={false}
    minTickGap={24}
    tickFormatter={(day: string) => formatBucketShort(day, granularity)}
  />
)

export interface BarsOverTimeProps {
  points: readonly { start: string }[]
  /** The field of a point the bars show. */
  valueKey: string
  label: string
  color: string
  granularity: Granularity
  format: (value: number) => string
  yAxisWidth: number
  allowDecimals: boolean
}

/** One value per period as bars (sign-ups, books added, revenue), with its tooltip. */
export function BarsOverTime({
  points,
  valueKey,
  label,
  color,
  granularity,
  format,
  yAxisWidth,
  allowDecimals,
}: BarsOverTimeProps) {
  const config = { [valueKey]: { label, color } } satisfies ChartConfig
  return (
    <ChartContainer config={config} className="aspect-auto h-56">
      <BarChart data={[...points]} margin={{ left: 4, right: 12, top: 8 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} />
        {periodAxis(granularity)}
        <YAxis
          width={yAxisWidth}
          tickLine={false}
          axisLine={false}
          allowDecimals={allowDecimals}
          tickFormatter={(value: number) => format(value)}
        />
        <ChartTooltip
          cursor={false}
          content={
            <ChartTooltipContent
              labelFormatter={(day) => formatBucket(day, granularity)}
              valueFormatter={(value) => format(value)}
            />
          }
        />
        <Bar dataKey={valueKey} fill={`var(--color-${valueKey})`} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ChartContainer>
  )
}

export interface TrafficPoint {
  start: string
  visitors: number
  pageviews: number
  previousStart: string
  previousVisitors: number
  previousPageviews: number
}

/** Visitors and page views per period as lines, beside the same periods before them (dashed). */
export function TrafficLines({ points, granularity }: { points: readonly TrafficPoint[]; granularity: Granularity }) {
  const config = {
    visitors: { label: m.dashboard_kpi_visitors(), color: 'var(--chart-1)' },
    pageviews: { label: m.dashboard_kpi_pageviews(), color: 'var(--chart-2)' },
    previousVisitors: { label: m.dashboard_col_previous_visitors(), color: 'var(--chart-1)', dashed: true },
    previousPageviews: { label: m.dashboard_col_previous_pageviews(), color: 'var(--chart-2)', dashed: true },
  } satisfies ChartConfig
  return (
    <ChartContainer config={config} className="aspect-auto h-64">
      <LineChart data={points as TrafficPoint[]} margin={{ left: 4, right: 12, top: 8 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} />
        {periodAxis(granularity)}
        <YAxis width={44} tickLine={false} axisLine={false} allowDecimals={false} tickFormatter={formatCount} />
        <ChartTooltip
          content={
            <ChartTooltipContent
              labelFormatter={(day) => formatBucket(day, granularity)}
              valueFormatter={(value) => formatCount(value)}
            />
          }
        />
        <ChartLegend content={<ChartLegendContent />} />
        {(['previousVisitors', 'previousPageviews'] as const).map((key) => (
          <Line
            key={key}
            dataKey={key}
            type="monotone"
            stroke={`var(--color-${key})`}
            strokeOpacity={0.6}
            strokeDasharray="5 4"
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
          />
        ))}
        {(['visitors', 'pageviews'] as const).map((key) => (
          <Line
            key={key}
            dataKey={key}
            type="monotone"
            stroke={`var(--color-${key})`}
            strokeWidth={2}
            dot={points.length === 1}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ChartContainer>
  )
}
