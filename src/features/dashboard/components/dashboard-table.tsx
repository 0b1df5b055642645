import { DownloadIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '#/components/ui/button'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'
import { type CsvTable, downloadCsv } from '../csv-export'

export interface TableColumn<Row> {
  header: string
  /** Right-aligned, with tabular figures. */
  numeric?: boolean
  /** What the page shows (formatted for the reader's language). */
  cell: (row: Row) => ReactNode
  /** What the CSV file holds: plain numbers a spreadsheet can sum, dates as YYYY-MM-DD. */
  csv: (row: Row) => string | number
}

export function csvOf<Row>(columns: TableColumn<Row>[], rows: readonly Row[]): CsvTable {
  return {
    fields: columns.map((column) => column.header),
    rows: rows.map((row) => columns.map((column) => column.csv(row))),
  }
}

/** A dashboard table: named for assistive technology (and tests) by `labelledBy`, scrolling sideways on a phone. */
export function DashboardTable<Row>({
  labelledBy,
  columns,
  rows,
  rowKey,
  empty,
  testId,
}: {
  labelledBy: string
  columns: TableColumn<Row>[]
  rows: readonly Row[]
  rowKey: (row: Row, index: number) => string
  empty?: string
  testId?: string
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" aria-labelledby={labelledBy} data-testid={testId}>
        <thead className="border-b text-left text-muted-foreground">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={cn('h-9 px-2 align-bottom font-medium', column.numeric && 'text-right')}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length} className="px-2 py-6 text-center text-muted-foreground">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row, index) => (
              <tr key={rowKey(row, index)} className="border-b last:border-0">
                {columns.map((column, columnIndex) => {
                  const Cell = columnIndex === 0 ? 'th' : 'td'
                  return (
                    <Cell
                      key={column.header}
                      scope={columnIndex === 0 ? 'row' : undefined}
                      className={cn(
                        'px-2 py-1.5 text-left align-middle font-normal',
                        column.numeric && 'text-right tabular-nums whitespace-nowrap',
                      )}
                    >
                      {column.cell(row)}
                    </Cell>
                  )
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  )
}

/**
 * Downloads a table as CSV (the file named after what it is and the range's days). Its accessible name says which
 * table, since a page has many of these buttons.
 */
export function CsvButton({ title, fileName, table }: { title: string; fileName: string; table: () => CsvTable }) {
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      aria-label={m.dashboard_download_csv_of({ table: title })}
      onClick={() => downloadCsv(fileName, table())}
    >
      <DownloadIcon aria-hidden />
      {m.dashboard_download_csv()}
    </Button>
  )
}
