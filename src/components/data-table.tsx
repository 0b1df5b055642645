import type { Cell, OnChangeFn, ReactTable, RowData, TableFeatures } from '@tanstack/react-table'
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon, Columns3Icon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '#/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuTrigger,
} from '#/components/ui/dropdown-menu'
import { m } from '#/paraglide/messages'

/** Table setters pass a value or an updater; a page's state (often its URL) wants the value. */
export function resolvedUpdater<T>(current: T, report: (next: T) => void): OnChangeFn<T> {
  return (updater) => report(typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater)
}

const skeletonRows = ['a', 'b', 'c', 'd', 'e']

/**
 * Every console list draws its TanStack table with this: sortable headers (the server sorts), loading skeletons, the
 * same look in both themes. The page decides what shows when there are no rows.
 */
export function DataTable<TFeatures extends TableFeatures, TData extends RowData>({
  table,
  loading,
  testId,
  rowTestId,
  highlightedRowId,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: any table of these rows, whatever state it subscribes to.
  table: ReactTable<TFeatures, TData, any>
  loading: boolean
  testId: string
  rowTestId: string
  /** A row to point out (e.g. the order a checkout just returned for). */
  highlightedRowId?: string
}) {
  // Column visibility is a feature every console table includes; the base types do not know it.
  const visibleIds = (table as unknown as { getVisibleLeafColumns: () => { id: string }[] })
    .getVisibleLeafColumns()
    .map((column) => column.id)
  const hasSelect = visibleIds.includes('select')
  const primaryId = visibleIds.find((id) => id !== 'select' && id !== 'actions')
  const placeOnCard = (id: string): CardPlace =>
    id === 'select' || id === 'actions'
      ? id
      : id === primaryId
        ? hasSelect
          ? 'primary-after-select'
          : 'primary'
        : 'field'
  return (
    <div className="overflow-x-auto rounded-lg border max-sm:overflow-visible max-sm:rounded-none max-sm:border-0">
      <table className="w-full text-sm max-sm:block" data-testid={testId}>
        <thead className="border-b bg-muted/50 text-left max-sm:hidden">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const column = header.column as typeof header.column & {
                  getIsSorted?: () => false | 'asc' | 'desc'
                  getCanSort?: () => boolean
                  getToggleSortingHandler?: () => ((event: unknown) => void) | undefined
                }
                const sorted = column.getIsSorted?.() ?? false
                const label = header.column.columnDef.header
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className="h-10 px-3 font-medium whitespace-nowrap text-muted-foreground"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {column.getCanSort?.() && typeof label === 'function' ? (
                      <button
                        type="button"
                        className="-mx-1 inline-flex items-center gap-1 rounded px-1 outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                        onClick={column.getToggleSortingHandler?.()}
                        aria-label={m.table_sort_by({ column: String((label as () => string)()) })}
                      >
                        <table.FlexRender header={header} />
                        {sorted === 'asc' ? (
                          <ArrowUpIcon className="size-3.5" aria-hidden />
                        ) : sorted === 'desc' ? (
                          <ArrowDownIcon className="size-3.5" aria-hidden />
                        ) : (
                          <ArrowUpDownIcon className="size-3.5 opacity-50" aria-hidden />
                        )}
                      </button>
                    ) : header.isPlaceholder ? null : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                )
              })}
            </tr>
          ))}
        </thead>
        <tbody className="max-sm:grid max-sm:gap-3">
          {loading
            ? skeletonRows.map((key) => (
                <tr key={key} className="data-row" aria-hidden>
                  <td colSpan={visibleIds.length} className="px-3 py-3 max-sm:col-span-3 max-sm:p-0">
                    <div className="h-8 animate-pulse rounded-md bg-muted" />
                  </td>
                </tr>
              ))
            : table.getRowModel().rows.map((row) => {
                const selected = (row as { getIsSelected?: () => boolean }).getIsSelected?.() ?? false
                return (
                  <tr
                    key={row.id}
                    data-testid={rowTestId}
                    data-state={selected ? 'selected' : undefined}
                    data-highlighted={row.id === highlightedRowId ? true : undefined}
                    className="data-row data-[highlighted]:bg-primary/10 data-[state=selected]:bg-muted/60"
                  >
                    {(row as unknown as { getVisibleCells: () => Cell<TFeatures, TData, unknown>[] })
                      .getVisibleCells()
                      .map((cell) => (
                        <td
                          key={cell.id}
                          data-place={placeOnCard(cell.column.id)}
                          data-label={cardLabel(cell.column.columnDef.header)}
                        >
                          <table.FlexRender cell={cell} />
                        </td>
                      ))}
                  </tr>
                )
              })}
        </tbody>
      </table>
    </div>
  )
}

/**
 * Where each cell goes on a card below 640 px (a row's look, `.data-row` in src/styles.css): the selection box, the
 * row's first column as its heading and the actions menu share the top line; every other column is a line of its own,
 * named by its column's header.
 */
type CardPlace = 'select' | 'primary' | 'primary-after-select' | 'actions' | 'field'

/** A column's name for its line on a card: headers given as a message (no arguments) name their column. */
function cardLabel(header: unknown): string | undefined {
  if (typeof header === 'string') return header
  if (typeof header !== 'function' || header.length > 0) return undefined
  const label: unknown = (header as () => unknown)()
  return typeof label === 'string' ? label : undefined
}

/**
 * Hidden columns are remembered in this browser (under `storageKey`), so a list looks the same on the next visit. `hiddenByDefault` names
 * the columns left out until the reader asks for them (what does not fit beside the rest on a laptop).
 */
export function useStoredColumnVisibility(storageKey?: string, hiddenByDefault: readonly string[] = []) {
  const defaults = Object.fromEntries(hiddenByDefault.map((id) => [id, false]))
  const [visibility, setVisibility] = useState<Record<string, boolean>>(defaults)
  useEffect(() => {
    if (!storageKey) return
    try {
      const stored = JSON.parse(localStorage.getItem(storageKey) ?? '{}') as unknown
      if (stored && typeof stored === 'object') setVisibility((current) => ({ ...current, ...stored }))
    } catch {
      // A damaged entry: keep the defaults.
    }
  }, [storageKey])
  const change = (next: Record<string, boolean>) => {
    setVisibility(next)
    if (storageKey) localStorage.setItem(storageKey, JSON.stringify(next))
  }
  return [visibility, change] as const
}

/** The "Columns" menu: which of the hideable columns show. */
export function ColumnVisibilityMenu({
  columns,
  visibility,
  onChange,
}: {
  columns: readonly (readonly [string, () => string])[]
  visibility: Record<string, boolean>
  onChange: (next: Record<string, boolean>) => void
}) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" className="ml-auto">
          <Columns3Icon aria-hidden />
          {m.table_columns()}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {columns.map(([id, label]) => (
          <DropdownMenuCheckboxItem
            key={id}
            checked={visibility[id] !== false}
            onSelect={(event) => event.preventDefault()}
            onCheckedChange={(checked) => onChange({ ...visibility, [id]: checked === true })}
          >
            {label()}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
