import { Link } from '@tanstack/react-router'
import {
  type ColumnVisibilityState,
  columnVisibilityFeature,
  createColumnHelper,
  type OnChangeFn,
  type RowSelectionState,
  rowSelectionFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table'
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon, BookIcon, MoreHorizontalIcon } from 'lucide-react'
import { Button } from '#/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '#/components/ui/dropdown-menu'
import { currentIntlLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import type { BookRow } from '../book-queries'
import type { BookSortColumn } from '../schemas'

const features = tableFeatures({ rowSortingFeature, rowSelectionFeature, columnVisibilityFeature })
const column = createColumnHelper<typeof features, BookRow>()

/** The columns a reader may hide, with their names (the select box and the actions always show). */
export const hideableBookColumns = [
  ['authors', m.books_col_authors],
  ['isbn', m.books_col_isbn],
  ['publishedYear', m.books_col_year],
  ['language', m.books_col_language],
  ['tags', m.books_col_tags],
  ['createdByName', m.books_col_created_by],
  ['createdAt', m.books_col_created],
  ['updatedAt', m.books_col_updated],
] as const

export interface BookRowActions {
  canChange: (book: BookRow, action: 'update' | 'delete') => boolean
  onEdit: (book: BookRow) => void
  onDelete: (book: BookRow) => void
}

function useColumns(actions: BookRowActions) {
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  const languageNames = new Intl.DisplayNames([currentIntlLocale()], { type: 'language' })
  return column.columns([
    column.display({
      id: 'select',
      enableSorting: false,
      enableHiding: false,
      header: ({ table }) => (
        <input
          type="checkbox"
          className="size-4 accent-primary"
          aria-label={m.books_select_all()}
          checked={table.getIsAllRowsSelected()}
          ref={(element) => {
            if (element) element.indeterminate = table.getIsSomeRowsSelected() && !table.getIsAllRowsSelected()
          }}
          onChange={table.getToggleAllRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <input
          type="checkbox"
          className="size-4 accent-primary"
          aria-label={m.books_select_row({ title: row.original.title })}
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    }),
    column.accessor('title', {
      header: m.books_col_title,
      enableHiding: false,
      cell: ({ row }) => (
        <div className="flex min-w-48 items-center gap-3">
          {row.original.coverUrl ? (
            <img
              src={row.original.coverUrl}
              alt=""
              loading="lazy"
              referrerPolicy="no-referrer"
              className="h-12 w-8 shrink-0 rounded-sm border object-cover"
            />
          ) : (
            <span className="flex h-12 w-8 shrink-0 items-center justify-center rounded-sm border bg-secondary">
              <BookIcon className="size-4 text-muted-foreground" aria-hidden />
            </span>
          )}
          {row.original.id.startsWith('pending-') ? (
            <span className="font-medium">{row.original.title}</span>
          ) : (
            <Link
              to="/console/books/$bookId"
              params={{ bookId: row.original.id }}
              className="font-medium underline-offset-4 hover:underline"
            >
              {row.original.title}
            </Link>
          )}
        </div>
      ),
    }),
    column.accessor('authors', {
      header: m.books_col_authors,
      cell: (info) => <span className="block min-w-32">{info.getValue().join(', ')}</span>,
    }),
    column.accessor('isbn', {
      header: m.books_col_isbn,
      cell: (info) => <span className="whitespace-nowrap tabular-nums">{info.getValue() ?? ''}</span>,
    }),
    column.accessor('publishedYear', { header: m.books_col_year, cell: (info) => info.getValue() ?? '' }),
    column.accessor('language', {
      header: m.books_col_language,
      cell: (info) => {
        const code = info.getValue()
        return code ? (languageNames.of(code) ?? code) : ''
      },
    }),
    column.accessor('tags', {
      header: m.books_col_tags,
      enableSorting: false,
      cell: (info) => (
        <ul className="flex flex-wrap gap-1">
          {info.getValue().map((tag) => (
            <li key={tag} className="rounded-full bg-secondary px-2 py-0.5 text-xs text-secondary-foreground">
              {tag}
            </li>
          ))}
        </ul>
      ),
    }),
    column.accessor('createdByName', {
      header: m.books_col_created_by,
      enableSorting: false,
      cell: (info) => info.getValue() ?? m.books_former_member(),
    }),
    column.accessor('createdAt', { header: m.books_col_created, cell: (info) => date.format(info.getValue()) }),
    column.accessor('updatedAt', { header: m.books_col_updated, cell: (info) => date.format(info.getValue()) }),
    column.display({
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: () => null,
      cell: ({ row }) => {
        const book = row.original
        if (book.id.startsWith('pending-')) return null
        return (
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" aria-label={m.books_actions_for({ title: book.title })}>
                <MoreHorizontalIcon aria-hidden />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem asChild>
                <Link to="/console/books/$bookId" params={{ bookId: book.id }}>
                  {m.books_view()}
                </Link>
              </DropdownMenuItem>
              {actions.canChange(book, 'update') ? (
                <DropdownMenuItem onSelect={() => actions.onEdit(book)}>{m.books_edit()}</DropdownMenuItem>
              ) : null}
              {actions.canChange(book, 'delete') ? (
                <DropdownMenuItem className="text-destructive" onSelect={() => actions.onDelete(book)}>
                  {m.books_delete()}
                </DropdownMenuItem>
              ) : null}
            </DropdownMenuContent>
          </DropdownMenu>
        )
      },
    }),
  ])
}

/** Table setters pass a value or an updater; the page's state wants the value. */
function resolved<T>(current: T, report: (next: T) => void): OnChangeFn<T> {
  return (updater) => report(typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater)
}

const skeletonRows = ['a', 'b', 'c', 'd', 'e']

/**
 * One page of books, as the server sorted and filtered it: sorting changes the page's URL (and so the query);
 * selection and column visibility stay with the page.
 */
export function BooksTable({
  rows,
  loading,
  sort,
  direction,
  onSortChange,
  selection,
  onSelectionChange,
  columnVisibility,
  onColumnVisibilityChange,
  actions,
}: {
  rows: BookRow[]
  loading: boolean
  sort: BookSortColumn
  direction: 'asc' | 'desc'
  onSortChange: (sort: BookSortColumn, direction: 'asc' | 'desc') => void
  selection: RowSelectionState
  onSelectionChange: (selection: RowSelectionState) => void
  columnVisibility: ColumnVisibilityState
  onColumnVisibilityChange: (visibility: ColumnVisibilityState) => void
  actions: BookRowActions
}) {
  const columns = useColumns(actions)
  const sorting: SortingState = [{ id: sort, desc: direction === 'desc' }]
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => row.id,
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting, rowSelection: selection, columnVisibility },
    onSortingChange: resolved(sorting, (next) => {
      const first = next[0]
      if (first) onSortChange(first.id as BookSortColumn, first.desc ? 'desc' : 'asc')
    }),
    onRowSelectionChange: resolved(selection, onSelectionChange),
    onColumnVisibilityChange: resolved(columnVisibility, onColumnVisibilityChange),
  })
  const visibleColumns = table.getVisibleLeafColumns().length

  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-sm" data-testid="books-table">
        <thead className="border-b bg-muted/50 text-left">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted()
                const label = header.column.columnDef.header
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className="h-10 px-3 font-medium whitespace-nowrap text-muted-foreground"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {header.column.getCanSort() && typeof label === 'function' ? (
                      <button
                        type="button"
                        className="-mx-1 inline-flex items-center gap-1 rounded px-1 outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                        onClick={header.column.getToggleSortingHandler()}
                        aria-label={m.books_sort_by({ column: String((label as () => string)()) })}
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
                    <div className="h-10 animate-pulse rounded-md bg-muted" />
                  </td>
                </tr>
              ))
            : table.getRowModel().rows.map((row) => (
                <tr
                  key={row.id}
                  data-testid="book-row"
                  data-state={row.getIsSelected() ? 'selected' : undefined}
                  className="border-b last:border-0 data-[state=selected]:bg-muted/60"
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className="px-3 py-2 align-middle">
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  )
}
