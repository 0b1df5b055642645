import type { Cell, OnChangeFn, ReactTable, RowData, TableFeatures } from '@tanstack/react-table'
import {
  ArrowDownIcon,
  ArrowUpDownIcon,
  ArrowUpIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  Columns3Icon,
} from 'lucide-react'
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
  const visibleColumns = (table as unknown as { getVisibleLeafColumns: () => unknown[] }).getVisibleLeafColumns().length
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="border-b bg-muted/50 text-left">
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
        <tbody>
          {loading
            ? skeletonRows.map((key) => (
                <tr key={key} className="border-b last:border-0" aria-hidden>
                  <td colSpan={visibleColumns} className="px-3 py-3">
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
                    className="border-b last:border-0 data-[highlighted]:bg-primary/10 data-[state=selected]:bg-muted/60"
                  >
                    {(row as unknown as { getVisibleCells: () => Cell<TFeatures, TData, unknown>[] })
                      .getVisibleCells()
                      .map((cell) => (
                        <td key={cell.id} className="px-3 py-2 align-middle">
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

/** Hidden columns are remembered in this browser, so a list looks the same on the next visit. */
export function useStoredColumnVisibility(storageKey: string) {
  const [visibility, setVisibility] = useState<Record<string, boolean>>({})
  useEffect(() => {
    try {
      const stored = JSON.parse(localStorage.getItem(storageKey) ?? '{}') as unknown
      if (stored && typeof stored === 'object') setVisibility(stored as Record<string, boolean>)
    } catch {
      // A damaged entry: keep every column.
    }
  }, [storageKey])
  const change = (next: Record<string, boolean>) => {
    setVisibility(next)
    localStorage.setItem(storageKey, JSON.stringify(next))
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

/** Previous and next page, by the cursors the server handed out. */
export function CursorPager({
  previousCursor,
  nextCursor,
  onPrevious,
  onNext,
}: {
  previousCursor?: string
  nextCursor?: string
  onPrevious: (cursor: string) => void
  onNext: (cursor: string) => void
}) {
  return (
    <nav aria-label={m.table_pagination()} className="mt-4 flex justify-end gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={!previousCursor}
        onClick={() => previousCursor && onPrevious(previousCursor)}
      >
        <ChevronLeftIcon aria-hidden />
        {m.table_previous()}
      </Button>
      <Button variant="outline" size="sm" disabled={!nextCursor} onClick={() => nextCursor && onNext(nextCursor)}>
        {m.table_next()}
        <ChevronRightIcon aria-hidden />
      </Button>
    </nav>
  )
}
