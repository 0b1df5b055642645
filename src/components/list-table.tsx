import {
  type ColumnDef,
  columnVisibilityFeature,
  createColumnHelper,
  type RowData,
  type RowSelectionState,
  rowSelectionFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table'
import { type RefObject, useMemo, useRef } from 'react'
import { DataTable, resolvedUpdater } from '#/components/data-table'
import { currentIntlLocale } from '#/lib/i18n'

/** What every console list's table can do; one set, so each list's columns are written the same way. */
export const listTableFeatures = tableFeatures({ rowSortingFeature, rowSelectionFeature, columnVisibilityFeature })

/** Writes a list's columns: `const column = listColumnHelper<BookRow>()`. */
export const listColumnHelper = <TRow extends RowData>() => createColumnHelper<typeof listTableFeatures, TRow>()

// biome-ignore lint/suspicious/noExplicitAny: each column keeps its own value type.
export type ListColumns<TRow extends RowData> = ColumnDef<typeof listTableFeatures, TRow, any>[]

/**
 * A list's columns for a language. Called once per language: TanStack Table renders each cell function as a
 * component, so new functions on every render would remount every cell (an open row menu would close whenever the list
 * refetched). The row actions are read through `actions` for the same reason.
 */
export type ListColumnsOf<TRow extends RowData, TActions> = (
  locale: string,
  actions: RefObject<TActions>,
) => ListColumns<TRow>

/**
 * What a table needs of its list: a list screen (`useListScreen`) is one; a short list that is never paged (pending
 * invitations) passes its rows alone.
 */
export interface ListTableSource<TRow> {
  rows: TRow[]
  loading: boolean
  selection?: RowSelectionState
  setSelection?: (selection: RowSelectionState) => void
  columnVisibility?: Record<string, boolean>
  setColumnVisibility?: (visibility: Record<string, boolean>) => void
}

const ignore = () => {}

/**
 * One page of a list's rows, as the server sorted and filtered it: a click on a header changes the order in the
 * address (and so the query); selection and hidden columns are the list screen's.
 */
export function ListTable<TRow extends { id: string | number }, TSort extends string = string, TActions = undefined>({
  list,
  columns,
  actions,
  sorting,
  selectable = false,
  testId,
  rowTestId,
  highlightedRowId,
}: {
  list: ListTableSource<TRow>
  columns: ListColumnsOf<TRow, TActions>
  actions?: TActions
  /** Without it, the headers do not sort. */
  sorting?: { column: TSort; direction: 'asc' | 'desc'; onChange: (column: TSort, direction: 'asc' | 'desc') => void }
  selectable?: boolean
  testId: string
  rowTestId: string
  highlightedRowId?: string
}) {
  const latestActions = useRef(actions as TActions)
  latestActions.current = actions as TActions
  const locale = currentIntlLocale()
  const columnDefs = useMemo(() => columns(locale, latestActions), [columns, locale])
  const sortingState: SortingState = sorting ? [{ id: sorting.column, desc: sorting.direction === 'desc' }] : []
  const table = useTable({
    features: listTableFeatures,
    columns: columnDefs,
    data: list.rows,
    getRowId: (row) => String(row.id),
    manualSorting: true,
    enableSorting: sorting !== undefined,
    enableSortingRemoval: false,
    enableRowSelection: selectable,
    state: { sorting: sortingState, rowSelection: list.selection ?? {}, columnVisibility: list.columnVisibility ?? {} },
    onSortingChange: resolvedUpdater(sortingState, (next) => {
      const first = next[0]
      if (first) sorting?.onChange(first.id as TSort, first.desc ? 'desc' : 'asc')
    }),
    onRowSelectionChange: resolvedUpdater(list.selection ?? {}, list.setSelection ?? ignore),
    onColumnVisibilityChange: resolvedUpdater(list.columnVisibility ?? {}, list.setColumnVisibility ?? ignore),
  })
  return (
    <DataTable
      table={table}
      loading={list.loading}
      testId={testId}
      rowTestId={rowTestId}
      highlightedRowId={highlightedRowId}
    />
  )
}
