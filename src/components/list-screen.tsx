import type { UseQueryResult } from '@tanstack/react-query'
import type { RowSelectionState } from '@tanstack/react-table'
import { type LucideIcon, SearchIcon, XIcon } from 'lucide-react'
import { type ReactNode, type RefObject, useRef, useState } from 'react'
import { ColumnVisibilityMenu, useStoredColumnVisibility } from '#/components/data-table'
import { EmptyState } from '#/components/empty-state'
import { ListPager, type PageChange, useLastPageWhenPastTheEnd } from '#/components/list-pager'
import { SearchBox } from '#/components/search-box'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import type { ListPageSize } from '#/lib/list-paging'
import { m } from '#/paraglide/messages'

/** The address of a console list: its page, page size, and (for lists with a search box) the words searched for. */
export interface ListSearch {
  page?: number
  size?: ListPageSize
  q?: string
}

/** One page of a list procedure's answer. */
export interface ListPage<TRow> {
  items: TRow[]
  total: number
}

type SearchChange<TSearch> = (change: Partial<TSearch>, options?: { replace?: boolean }) => void

/** What a list screen knows and can do; `useListScreen` makes it, the List* components read it. */
export interface ListScreen<TSearch extends ListSearch, TRow extends { id: string | number }> {
  query: UseQueryResult<ListPage<TRow>, unknown>
  rows: TRow[]
  total: number
  page: number
  size: number
  /** Skeleton rows show: the first page is loading, or a page past the end is moving to the last one. */
  loading: boolean
  /** Some filter (or a search) narrows the list, so an empty list means "nothing matches", not "nothing yet". */
  filtering: boolean
  search: TSearch
  /** A new filter or order starts from the first page, with nothing selected. */
  refine: SearchChange<TSearch>
  clearFilters: () => void
  changePage: (change: PageChange) => void
  selection: RowSelectionState
  setSelection: (selection: RowSelectionState) => void
  selectedRows: TRow[]
  selectedIds: string[]
  columnVisibility: Record<string, boolean>
  setColumnVisibility: (visibility: Record<string, boolean>) => void
  /** The toolbar, so clearing the filters from an empty list can put the focus back in it. */
  toolbar: RefObject<HTMLElement | null>
}

/**
 * A console list's state: filters, search, order and page live in the address (shareable, and the back button works);
 * selection and hidden columns stay with the page. The screen makes the query (`placeholderData: keepPreviousData`, so
 * the previous page stays on screen while the next loads) and passes it in.
 */
export function useListScreen<TSearch extends ListSearch, TRow extends { id: string | number }>({
  search,
  onSearchChange,
  query,
  paging,
  filterKeys = [],
  columnsStorageKey,
  columnsHiddenByDefault,
}: {
  search: TSearch
  /** Merged over the address's latest search, so two quick changes both count (the page's `search` lags a navigation). */
  onSearchChange: SearchChange<TSearch>
  query: UseQueryResult<ListPage<TRow>, unknown>
  /** The page and page size the query asked for (the address's, with the list's defaults). */
  paging: { page: number; limit: number }
  /** The address's keys that narrow the list (`q` included when there is a search box). */
  filterKeys?: readonly (keyof TSearch)[]
  /** Where this browser remembers the hidden columns; without it, every column shows. */
  columnsStorageKey?: string
  columnsHiddenByDefault?: readonly string[]
}): ListScreen<TSearch, TRow> {
  const [selection, setSelection] = useState<RowSelectionState>({})
  const [columnVisibility, setColumnVisibility] = useStoredColumnVisibility(columnsStorageKey, columnsHiddenByDefault)
  const toolbar = useRef<HTMLElement>(null)
  const rows = query.data?.items ?? []
  const settled = query.isSuccess && !query.isPlaceholderData
  const pastTheEnd = settled && paging.page > 1 && rows.length === 0
  useLastPageWhenPastTheEnd({
    page: paging.page,
    size: paging.limit,
    total: query.data?.total,
    rowsShown: rows.length,
    settled,
    onChange: (change, options) => onSearchChange(change as Partial<TSearch>, options),
  })
  const refine: SearchChange<TSearch> = (change, options) => {
    setSelection({})
    onSearchChange({ ...change, page: undefined }, options)
  }
  const selectedIds = Object.keys(selection).filter((id) => selection[id])
  return {
    query,
    rows,
    total: query.data?.total ?? 0,
    page: paging.page,
    size: paging.limit,
    loading: query.isPending || pastTheEnd,
    filtering: filterKeys.some((key) => search[key] !== undefined),
    search,
    refine,
    clearFilters: () =>
      refine(Object.fromEntries(filterKeys.map((key) => [key, undefined])) as unknown as Partial<TSearch>),
    changePage: (change) => onSearchChange(change as Partial<TSearch>),
    selection,
    setSelection,
    selectedRows: rows.filter((row) => selection[String(row.id)]),
    selectedIds,
    columnVisibility,
    setColumnVisibility,
    toolbar,
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the List* components read no row or search field of their own.
type AnyListScreen = ListScreen<any, any>

/**
 * Above a list: its search box, its filters (the children), "Clear filters" while any applies, and the Columns menu.
 * On a phone the fields wrap, the search box taking a line of its own.
 */
export function ListToolbar({
  list,
  searchPlaceholder,
  hideableColumns,
  children,
}: {
  list: AnyListScreen
  /** Given, the list has a search box (its words are the address's `q`). */
  searchPlaceholder?: string
  hideableColumns?: readonly (readonly [string, () => string])[]
  children?: ReactNode
}) {
  return (
    <search ref={list.toolbar} className="mb-4 flex flex-wrap items-end gap-3">
      {searchPlaceholder !== undefined ? (
        <SearchBox
          value={list.search.q ?? ''}
          placeholder={searchPlaceholder}
          onChange={(q) => list.refine({ q: q.trim() || undefined }, { replace: true })}
        />
      ) : null}
      {children}
      {list.filtering ? (
        <Button variant="ghost" onClick={list.clearFilters}>
          <XIcon aria-hidden />
          {m.list_clear_filters()}
        </Button>
      ) : null}
      {hideableColumns ? (
        <ColumnVisibilityMenu
          columns={hideableColumns}
          visibility={list.columnVisibility}
          onChange={list.setColumnVisibility}
        />
      ) : null}
    </search>
  )
}

/**
 * The line between the toolbar and the rows: how many rows the list holds, or, once some are selected, how many and
 * what can be done to them (the children, shown only then).
 */
export function ListStatus({
  list,
  total,
  children,
}: {
  list: AnyListScreen
  /** The list's size in words ("Total: 12"), once known. */
  total?: string
  children?: ReactNode
}) {
  const selected = list.selectedIds.length
  return (
    <div
      className={`mb-3 flex flex-wrap items-center gap-2 text-sm ${children ? 'min-h-9' : 'min-h-5'}`}
      aria-live="polite"
    >
      {children && selected > 0 ? (
        <>
          <span className="font-medium" data-testid="list-selected">
            {m.list_selected({ count: String(selected) })}
          </span>
          {children}
          <Button size="sm" variant="ghost" onClick={() => list.setSelection({})}>
            {m.list_clear_selection()}
          </Button>
        </>
      ) : total !== undefined ? (
        <span className="text-muted-foreground" data-testid="list-total">
          {total}
        </span>
      ) : null}
    </div>
  )
}

/** A load that failed: what went wrong, and a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 p-4 text-sm">
      <span>{describeError(error)}</span>
      <Button variant="outline" size="sm" onClick={onRetry}>
        {m.retry()}
      </Button>
    </div>
  )
}

interface EmptyMessage {
  icon: LucideIcon
  title: string
  description: string
  action?: ReactNode
}

/**
 * The rows (the children, a `ListTable`) and the pager; or, instead, the failure with Retry, the empty list with what to
 * do first, or (while filters apply) "nothing matches" with a button that clears them.
 */
export function ListBody({
  list,
  empty,
  noMatch,
  children,
}: {
  list: AnyListScreen
  empty: EmptyMessage
  /** For a filtered list that came back empty; the icon defaults to a magnifier, the action to "Clear filters". */
  noMatch?: Omit<EmptyMessage, 'icon' | 'action'> & { icon?: LucideIcon; clearLabel?: string }
  children: ReactNode
}) {
  if (list.query.isError) return <LoadError error={list.query.error} onRetry={() => void list.query.refetch()} />
  if (!list.loading && list.rows.length === 0) {
    if (list.filtering && noMatch) {
      const clear = () => {
        list.clearFilters()
        // The button goes with the empty list; the focus goes back to the filters rather than to the page's top.
        list.toolbar.current?.querySelector<HTMLElement>('input, select, button')?.focus()
      }
      return (
        <EmptyState
          icon={noMatch.icon ?? SearchIcon}
          title={noMatch.title}
          action={
            <Button variant="outline" onClick={clear}>
              {noMatch.clearLabel ?? m.list_clear_filters()}
            </Button>
          }
        >
          {noMatch.description}
        </EmptyState>
      )
    }
    return (
      <EmptyState icon={empty.icon} title={empty.title} action={empty.action}>
        {empty.description}
      </EmptyState>
    )
  }
  return (
    <>
      {children}
      <ListPager page={list.page} size={list.size} total={list.total} onChange={list.changePage} />
    </>
  )
}
