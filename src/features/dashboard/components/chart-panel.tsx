import { BarChart3Icon, TableIcon } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { Button } from '#/components/ui/button'
import { m } from '#/paraglide/messages'
import { CsvButton, csvOf, DashboardTable, type TableColumn } from './dashboard-table'

/**
 * A chart with its accessible alternative: the chart is one image named by a summary of what it shows, and "Table"
 * shows the same numbers as a table (which is also what "Download CSV" saves).
 */
export function ChartPanel<Row>({
  title,
  description,
  summary,
  columns,
  rows,
  rowKey,
  fileName,
  empty,
  testId,
  children,
}: {
  title: string
  description?: ReactNode
  /** The chart's accessible name: what it shows and its totals. */
  summary: string
  columns: TableColumn<Row>[]
  rows: readonly Row[]
  rowKey: (row: Row, index: number) => string
  fileName: string
  /** Shown instead of the chart when there is nothing to draw (the table still lists the zeros). */
  empty?: ReactNode
  testId?: string
  children: ReactNode
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart')
  const titleId = useId()
  return (
    <section aria-labelledby={titleId} className="min-w-0 rounded-xl border p-4" data-testid={testId}>
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={titleId} className="font-semibold">
            {title}
          </h3>
          {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
        </div>
        <div className="flex flex-wrap gap-2">
          {/* biome-ignore lint/a11y/useSemanticElements: a toggle pair, not a form's fieldset. */}
          <div role="group" aria-label={m.dashboard_view_label()} className="inline-flex rounded-md border p-0.5">
            <Button
              type="button"
              size="sm"
              variant={view === 'chart' ? 'secondary' : 'ghost'}
              className="h-7"
              aria-pressed={view === 'chart'}
              onClick={() => setView('chart')}
            >
              <BarChart3Icon aria-hidden />
              {m.dashboard_view_chart()}
            </Button>
            <Button
              type="button"
              size="sm"
              variant={view === 'table' ? 'secondary' : 'ghost'}
              className="h-7"
              aria-pressed={view === 'table'}
              onClick={() => setView('table')}
            >
              <TableIcon aria-hidden />
              {m.dashboard_view_table()}
            </Button>
          </div>
          <CsvButton title={title} fileName={fileName} table={() => csvOf(columns, rows)} />
        </div>
      </div>
      {view === 'table' ? (
        <DashboardTable labelledBy={titleId} columns={columns} rows={rows} rowKey={rowKey} />
      ) : empty ? (
        <div className="flex aspect-video max-h-64 w-full items-center justify-center rounded-lg bg-muted/40 p-4 text-center text-sm text-muted-foreground">
          {empty}
        </div>
      ) : (
        <div role="img" aria-label={summary} className="w-full">
          {children}
        </div>
      )}
    </section>
  )
}
