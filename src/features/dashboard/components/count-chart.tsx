import type { ReactNode } from 'react'
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts'
import { type ChartConfig, ChartContainer, ChartTooltip, ChartTooltipContent } from '#/components/ui/chart'
import { m } from '#/paraglide/messages'
import { csvFileName } from '../csv-export'
import { formatBucket, formatBucketShort, formatCount } from '../dashboard-format'
import type { Granularity } from '../date-range'
import { ChartPanel } from './chart-panel'
import type { TableColumn } from './dashboard-table'

interface CountPoint {
  start: string
  count: number
}

/** A count per bucket (sign-ups, books added) as bars, with its table and CSV. */
export function CountChart({
  title,
  countLabel,
  summary,
  series,
  range,
  file,
  color,
  empty,
  testId,
}: {
  title: string
  /** What is counted, as the table's column and the tooltip name it. */
  countLabel: string
  summary: string
  series: readonly CountPoint[]
  range: { from: string; to: string; granularity: Granularity }
  file: string
  color: string
  /** Shown in place of the chart when every bucket is zero. */
  empty: ReactNode
  testId?: string
}) {
  const { granularity } = range
  const config = { count: { label: countLabel, color } } satisfies ChartConfig
  const columns: TableColumn<CountPoint>[] = [
    { header: m.dashboard_col_period(), cell: (row) => formatBucket(row.start, granularity), csv: (row) => row.start },
    { header: countLabel, numeric: true, cell: (row) => formatCount(row.count), csv: (row) => row.count },
  ]
  const nothing = series.every((point) => point.count === 0)
  return (
    <ChartPanel
      title={title}
      summary={summary}
      columns={columns}
      rows={series}
      rowKey={(row) => row.start}
      fileName={csvFileName(file, range)}
      empty={nothing ? empty : undefined}
      testId={testId}
    >
      <ChartContainer config={config} className="aspect-auto h-56">
        <BarChart data={series as CountPoint[]} margin={{ left: 4, right: 12, top: 8 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} />
          <XAxis
            dataKey="start"
            tickLine={false}
            axisLine={false}
            minTickGap={24}
            tickFormatter={(day: string) => formatBucketShort(day, granularity)}
          />
          <YAxis width={44} tickLine={false} axisLine={false} allowDecimals={false} tickFormatter={formatCount} />
          <ChartTooltip
            cursor={false}
            content={
              <ChartTooltipContent
                labelFormatter={(day) => formatBucket(day, granularity)}
                valueFormatter={(value) => formatCount(value)}
              />
            }
          />
          <Bar dataKey="count" fill="var(--color-count)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ChartContainer>
    </ChartPanel>
  )
}
