import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { BookOpenIcon, DownloadIcon, PlusIcon, TagIcon, Trash2Icon, UploadIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { ListBody, ListStatus, ListToolbar, useListScreen } from '#/components/list-screen'
import { ListTable } from '#/components/list-table'
import { PageHeader } from '#/components/page-header'
import { PlanLimitReached, usePlanLimit } from '#/components/plan-limit-notice'
import { Button } from '#/components/ui/button'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { toastError } from '#/lib/error-toast'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { type BookRow, filtersOf, listInputOf, useBookListCache } from '../book-queries'
import type { BookListSearch, BookSortColumn } from '../search'
import { bookColumns, hideableBookColumns } from './book-columns'
import { BookFilters } from './book-filters'
import { BookFormDialog } from './book-form-dialog'
import { BookImportProgress } from './book-import-progress'
import { ImportBooksDialog } from './import-books-dialog'
import { TagBooksDialog } from './tag-books-dialog'
import { useDeleteBooks } from './use-delete-books'
import '../book-messages'

/** The address's keys that narrow the list. */
const bookFilterKeys = ['q', 'tag', 'language', 'yearFrom', 'yearTo'] as const

/**
 * The organization's books: search, filters and order live in the URL (shareable, and the back button works),
 * pages follow cursors, and every change shows at once.
 */
export function BooksScreen({
  search,
  onSearchChange,
}: {
  search: BookListSearch
  /** Merged over the address's latest search, so two quick changes both count (the page's `search` lags a navigation). */
  onSearchChange: (change: Partial<BookListSearch>, options?: { replace?: boolean }) => void
}) {
  const session = useConsoleSession()
  const trpc = useTRPC()
  const canCreate = useCan({ book: ['create'] })
  const granted = session.permissions.book
  const [editing, setEditing] = useState<BookRow | 'new' | null>(null)
  const [importing, setImporting] = useState(false)
  const [tagging, setTagging] = useState<string[] | null>(null)
  const deleteBooks = useDeleteBooks()

  const input = listInputOf(search)
  const list = useListScreen({
    search,
    onSearchChange,
    query: useQuery({ ...trpc.books.list.queryOptions(input), placeholderData: keepPreviousData }),
    paging: input,
    filterKeys: bookFilterKeys,
    columnsStorageKey: 'hatch.books.columns',
    // Offered in the Columns menu; left out at first so the rest fit a laptop's screen beside the menu.
    columnsHiddenByDefault: ['isbn', 'language', 'updatedAt'],
  })

  const canChange = (book: BookRow, action: 'update' | 'delete') =>
    Boolean(granted?.includes(action) || (granted?.includes(`${action}-own`) && book.createdById === session.user.id))
  // A selected row on another page is not at hand to check, so the selection's actions wait until it is.
  const selectionAllows = (action: 'update' | 'delete') =>
    list.selectedRows.length === list.selectedIds.length && list.selectedRows.every((row) => canChange(row, action))
  const startActions = { onNew: () => setEditing('new'), onImport: () => setImporting(true) }

  return (
    <>
      <PageHeader
        title={m.console_books()}
        description={m.books_description({ organization: session.organization.name })}
        actions={<BooksPageActions canCreate={canCreate} filters={filtersOf(search)} {...startActions} />}
      />
      {canCreate ? (
        <div className="mb-4 empty:hidden">
          <PlanLimitReached name="books" id="books-limit" />
        </div>
      ) : null}
      <BookImportProgress />

      <ListToolbar list={list} searchPlaceholder={m.books_search_placeholder()} hideableColumns={hideableBookColumns}>
        <BookFilters search={search} onChange={list.refine} />
      </ListToolbar>
      {/* The pager under the table already says how many books there are ("1–1 of 1"). */}
      <ListStatus list={list}>
        {selectionAllows('update') ? (
          <Button size="sm" variant="outline" onClick={() => setTagging(list.selectedIds)}>
            <TagIcon aria-hidden />
            {m.books_tag_selected()}
          </Button>
        ) : null}
        {selectionAllows('delete') ? (
          <Button
            size="sm"
            variant="destructive"
            onClick={() => {
              deleteBooks(list.selectedRows)
              list.setSelection({})
            }}
          >
            <Trash2Icon aria-hidden />
            {m.books_delete_selected()}
          </Button>
        ) : null}
      </ListStatus>
      <ListBody
        list={list}
        empty={{
          icon: BookOpenIcon,
          title: m.books_empty_title(),
          description: m.books_empty(),
          action: canCreate ? <BooksEmptyActions {...startActions} /> : undefined,
        }}
        noMatch={{ title: m.books_no_match_title(), description: m.books_no_match() }}
      >
        <ListTable
          list={list}
          columns={bookColumns}
          actions={{ canChange, onEdit: setEditing, onDelete: (book: BookRow) => deleteBooks([book]) }}
          sorting={{
            column: input.sort,
            direction: input.direction,
            onChange: (sort: BookSortColumn, direction) => list.refine({ sort, direction }),
          }}
          selectable
          testId="books-table"
          rowTestId="book-row"
        />
      </ListBody>

      {editing ? (
        <BookEditor
          book={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          currentUser={{ id: session.user.id, name: session.user.name }}
        />
      ) : null}
      <ImportBooksDialog open={importing} onOpenChange={setImporting} />
      {tagging ? (
        <TagBooksDialog
          ids={tagging}
          onClose={(done) => {
            setTagging(null)
            if (done) list.setSelection({})
          }}
        />
      ) : null}
    </>
  )
}

/** The page's own actions: import (and the plan's limit stops it), export what the filters show, and a new book. */
function BooksPageActions({
  canCreate,
  filters,
  onNew,
  onImport,
}: {
  canCreate: boolean
  filters: ReturnType<typeof filtersOf>
  onNew: () => void
  onImport: () => void
}) {
  const cache = useBookListCache()
  const booksFull = Boolean(usePlanLimit('books')?.reached)
  const exportCsv = async () => {
    try {
      const file = await cache.fetchExport(filters)
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }))
      const link = document.createElement('a')
      link.href = url
      link.download = file.filename
      link.click()
      URL.revokeObjectURL(url)
      toast.success(m.books_exported({ filename: file.filename }))
    } catch (error) {
      toastError(error)
    }
  }
  const limited = { disabled: booksFull, 'aria-describedby': booksFull ? 'books-limit' : undefined }
  return (
    <>
      {canCreate ? (
        <Button variant="outline" onClick={onImport} {...limited}>
          <UploadIcon aria-hidden />
          {m.books_import()}
        </Button>
      ) : null}
      <Button variant="outline" onClick={exportCsv}>
        <DownloadIcon aria-hidden />
        {m.books_export()}
      </Button>
      {canCreate ? (
        <Button onClick={onNew} {...limited}>
          <PlusIcon aria-hidden />
          {m.books_new()}
        </Button>
      ) : null}
    </>
  )
}

function BooksEmptyActions({ onNew, onImport }: { onNew: () => void; onImport: () => void }) {
  return (
    <div className="flex flex-wrap justify-center gap-2">
      <Button onClick={onNew}>
        <PlusIcon aria-hidden />
        {m.books_new()}
      </Button>
      <Button variant="outline" onClick={onImport}>
        <UploadIcon aria-hidden />
        {m.books_import()}
      </Button>
    </div>
  )
}

/** Loads the whole book (the list leaves the description out) before the edit form opens. */
function BookEditor({
  book,
  onClose,
  currentUser,
}: {
  book?: BookRow
  onClose: () => void
  currentUser: { id: string; name: string }
}) {
  const trpc = useTRPC()
  const details = useQuery({ ...trpc.books.get.queryOptions({ id: book?.id ?? '' }), enabled: Boolean(book) })
  const failure = details.error
  useEffect(() => {
    if (!failure) return
    toastError(failure)
    onClose()
  }, [failure, onClose])
  if (book && !details.data) return null
  return (
    <BookFormDialog
      book={details.data}
      open
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      currentUser={currentUser}
    />
  )
}
