import type { ReactNode } from 'react'
import { m } from '#/paraglide/messages'
import { csvFileName } from '../csv-export'
import { formatBucket, formatCount } from '../dashboard-format'
import type { Granularity } from '../date-range'
import { ChartPanel } from './chart-panel'
import type { TableColumn } from './dashboard-table'
import { BarsOverTime } from './lazy-charts'

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
      <BarsOverTime
        points={series}
        valueKey="count"
        label={countLabel}
        color={color}
        granularity={granularity}
        format={formatCount}
        yAxisWidth={44}
        allowDecimals={false}
      />
    </ChartPanel>
  )
}
