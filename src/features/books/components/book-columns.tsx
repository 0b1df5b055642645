import { Link } from '@tanstack/react-router'
import { BookIcon } from 'lucide-react'
import type { RefObject } from 'react'
import { entityColumns, hideableEntityColumns } from '#/components/entity-fields'
import { listColumnHelper } from '#/components/list-table'
import { RowActionsMenu } from '#/components/row-actions-menu'
import { DropdownMenuItem } from '#/components/ui/dropdown-menu'
import { m } from '#/paraglide/messages'
import { bookEntity } from '../book-entity'
import type { BookRow } from '../book-queries'

const column = listColumnHelper<BookRow>()

/** The columns a reader may hide, with their names (the select box and the actions always show). */
export const hideableBookColumns = [
  ...hideableEntityColumns(bookEntity),
  ['createdByName', m.books_col_created_by],
  ['createdAt', m.books_col_created],
  ['updatedAt', m.books_col_updated],
] as const

export interface BookRowActions {
  canChange: (book: BookRow, action: 'update' | 'delete') => boolean
  onEdit: (book: BookRow) => void
  onDelete: (book: BookRow) => void
}

/** The books list's columns, with each row's menu (view, and edit or delete where the reader may). */
export function bookColumns(locale: string, latestActions: RefObject<BookRowActions | undefined>) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })
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
    ...entityColumns<BookRow, typeof bookEntity.fields>(bookEntity, {
      title: ({ row }) => (
        <div className="flex min-w-48 items-center gap-3">
          {row.original.coverImage || row.original.coverUrl ? (
            <img
              src={row.original.coverImage?.small ?? row.original.coverUrl ?? undefined}
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
      authors: ({ row }) => <span className="block min-w-32">{row.original.authors.join(', ')}</span>,
      // Nothing at all when there is none, so a phone's card leaves the line out.
      isbn: ({ row }) =>
        row.original.isbn ? <span className="whitespace-nowrap tabular-nums">{row.original.isbn}</span> : null,
      tags: ({ row }) => (
        <ul className="flex flex-wrap gap-1">
          {row.original.tags.map((tag) => (
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
    column.accessor('createdAt', {
      header: m.books_col_created,
      cell: (info) => <span className="whitespace-nowrap">{date.format(info.getValue())}</span>,
    }),
    column.accessor('updatedAt', {
      header: m.books_col_updated,
      cell: (info) => <span className="whitespace-nowrap">{date.format(info.getValue())}</span>,
    }),
    column.display({
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: () => null,
      cell: ({ row }) => {
        const book = row.original
        const actions = latestActions.current
        if (!actions || book.id.startsWith('pending-')) return null
        return (
          <RowActionsMenu label={m.books_actions_for({ title: book.title })}>
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
          </RowActionsMenu>
        )
      },
    }),
  ])
}
