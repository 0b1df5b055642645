import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { RowSelectionState } from '@tanstack/react-table'
import { BookOpenIcon, DownloadIcon, PlusIcon, SearchIcon, TagIcon, Trash2Icon, UploadIcon, XIcon } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { toast } from 'sonner'
import { ColumnVisibilityMenu, useStoredColumnVisibility } from '#/components/data-table'
import { EmptyState } from '#/components/empty-state'
import { ListFilterSelect } from '#/components/list-filter-select'
import { ListPager, useLastPageWhenPastTheEnd } from '#/components/list-pager'
import { PageHeader } from '#/components/page-header'
import { PlanLimitReached, usePlanLimit } from '#/components/plan-limit-notice'
import { SearchBox } from '#/components/search-box'
import { Button } from '#/components/ui/button'
import { Input } from '#/components/ui/input'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { toastError } from '#/lib/error-toast'
import { describeError } from '#/lib/errors'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { type BookRow, filtersOf, listInputOf, useBookListCache } from '../book-queries'
import type { BookListSearch, BookSortColumn } from '../search'
import { BookFormDialog, useLanguageOptions } from './book-form-dialog'
import { BookImportProgress } from './book-import-progress'
import { BooksTable, hideableBookColumns } from './books-table'
import { ImportBooksDialog } from './import-books-dialog'
import { TagBooksDialog } from './tag-books-dialog'
import { useDeleteBooks } from './use-delete-books'

const columnsStorageKey = 'hatch.books.columns'
/** Offered in the Columns menu; left out at first so the rest fit a laptop's screen beside the menu. */
const columnsHiddenByDefault = ['isbn', 'language', 'updatedAt']

function YearBox({ label, value, onChange }: { label: string; value?: number; onChange: (year?: number) => void }) {
  const id = useId()
  const [text, setText] = useState(value?.toString() ?? '')
  useEffect(() => setText(value?.toString() ?? ''), [value])
  const commit = () => {
    const year = /^\d{1,4}$/.test(text.trim()) ? Number(text.trim()) : undefined
    if (year !== value) onChange(year)
    else setText(value?.toString() ?? '')
  }
  return (
    <div className="grid w-28 gap-1">
      <label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </label>
      <Input
        id={id}
        inputMode="numeric"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit()
        }}
      />
    </div>
  )
}

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
  const cache = useBookListCache()
  const canCreate = useCan({ book: ['create'] })
  const granted = session.permissions.book
  const languages = useLanguageOptions()
  const [selection, setSelection] = useState<RowSelectionState>({})
  const [visibility, setVisibility] = useStoredColumnVisibility(columnsStorageKey, columnsHiddenByDefault)
  const [editing, setEditing] = useState<BookRow | 'new' | null>(null)
  const [importing, setImporting] = useState(false)
  const [tagging, setTagging] = useState<string[] | null>(null)
  const deleteBooks = useDeleteBooks()
  const booksFull = Boolean(usePlanLimit('books')?.reached)

  const filters = filtersOf(search)
  const list = useQuery({ ...trpc.books.list.queryOptions(listInputOf(search)), placeholderData: keepPreviousData })
  const count = useQuery(trpc.books.count.queryOptions(filters))
  const facets = useQuery(trpc.books.facets.queryOptions())

  const filtering = Boolean(search.q || search.tag || search.language || search.yearFrom || search.yearTo)
  /** A new filter or order starts from the first page, with nothing selected. */
  const refine = (change: Partial<BookListSearch>, options?: { replace?: boolean }) => {
    setSelection({})
    onSearchChange({ ...change, page: undefined }, options)
  }

  const canChange = (book: BookRow, action: 'update' | 'delete') =>
    Boolean(granted?.includes(action) || (granted?.includes(`${action}-own`) && book.createdById === session.user.id))

  const selectedIds = Object.keys(selection).filter((id) => selection[id])
  const rows = list.data?.items ?? []
  useLastPageWhenPastTheEnd({
    page: listInputOf(search).page,
    size: listInputOf(search).limit,
    total: list.data?.total,
    rowsShown: rows.length,
    settled: list.isSuccess && !list.isPlaceholderData,
    onChange: onSearchChange,
  })
  const selectedRows = rows.filter((row) => selection[row.id])
  const selectionDeletable =
    selectedRows.length === selectedIds.length && selectedRows.every((row) => canChange(row, 'delete'))
  const selectionTaggable =
    selectedRows.length === selectedIds.length && selectedRows.every((row) => canChange(row, 'update'))

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

  return (
    <>
      <PageHeader
        title={m.console_books()}
        description={m.books_description({ organization: session.organization.name })}
        actions={
          <>
            {canCreate ? (
              <Button
                variant="outline"
                onClick={() => setImporting(true)}
                disabled={booksFull}
                aria-describedby={booksFull ? 'books-limit' : undefined}
              >
                <UploadIcon aria-hidden />
                {m.books_import()}
              </Button>
            ) : null}
            <Button variant="outline" onClick={exportCsv}>
              <DownloadIcon aria-hidden />
              {m.books_export()}
            </Button>
            {canCreate ? (
              <Button
                onClick={() => setEditing('new')}
                disabled={booksFull}
                aria-describedby={booksFull ? 'books-limit' : undefined}
              >
                <PlusIcon aria-hidden />
                {m.books_new()}
              </Button>
            ) : null}
          </>
        }
      />
      {canCreate ? (
        <div className="mb-4 empty:hidden">
          <PlanLimitReached name="books" id="books-limit" />
        </div>
      ) : null}
      <BookImportProgress />

      <search className="mb-4 flex flex-wrap items-end gap-3">
        <SearchBox
          value={search.q ?? ''}
          placeholder={m.books_search_placeholder()}
          onChange={(q) => refine({ q: q.trim() || undefined }, { replace: true })}
        />
        <ListFilterSelect
          label={m.books_filter_tag()}
          value={search.tag}
          onChange={(tag) => refine({ tag })}
          options={[
            ['', m.books_filter_any_tag()],
            ...(facets.data?.tags ?? []).map((tag): [string, string] => [tag, tag]),
          ]}
        />
        <ListFilterSelect
          label={m.books_filter_language()}
          value={search.language}
          onChange={(language) => refine({ language: language as BookListSearch['language'] })}
          options={[
            ['', m.books_filter_any_language()],
            ...languages
              .filter((language) => facets.data?.languages.includes(language.code) || language.code === search.language)
              .map((language): [string, string] => [language.code, language.name]),
          ]}
        />
        <YearBox
          label={m.books_filter_year_from()}
          value={search.yearFrom}
          onChange={(yearFrom) => refine({ yearFrom })}
        />
        <YearBox label={m.books_filter_year_to()} value={search.yearTo} onChange={(yearTo) => refine({ yearTo })} />
        {filtering ? (
          <Button
            variant="ghost"
            onClick={() =>
              refine({ q: undefined, tag: undefined, language: undefined, yearFrom: undefined, yearTo: undefined })
            }
          >
            <XIcon aria-hidden />
            {m.books_filter_clear()}
          </Button>
        ) : null}
        <ColumnVisibilityMenu columns={hideableBookColumns} visibility={visibility} onChange={setVisibility} />
      </search>

      <div className="mb-3 flex min-h-9 flex-wrap items-center gap-2 text-sm" aria-live="polite">
        {selectedIds.length > 0 ? (
          <>
            <span className="font-medium" data-testid="books-selected">
              {m.books_selected({ count: String(selectedIds.length) })}
            </span>
            {selectionTaggable ? (
              <Button size="sm" variant="outline" onClick={() => setTagging(selectedIds)}>
                <TagIcon aria-hidden />
                {m.books_tag_selected()}
              </Button>
            ) : null}
            {selectionDeletable ? (
              <Button
                size="sm"
                variant="destructive"
                onClick={() => {
                  deleteBooks(selectedRows)
                  setSelection({})
                }}
              >
                <Trash2Icon aria-hidden />
                {m.books_delete_selected()}
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" onClick={() => setSelection({})}>
              {m.books_clear_selection()}
            </Button>
          </>
        ) : count.data !== undefined ? (
          <span className="text-muted-foreground" data-testid="books-total">
            {m.books_total({ count: String(count.data) })}
          </span>
        ) : null}
      </div>

      {list.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {describeError(list.error)}
        </p>
      ) : !list.isPending && rows.length === 0 ? (
        filtering || search.page ? (
          <EmptyState
            icon={SearchIcon}
            title={m.books_no_match_title()}
            action={
              <Button
                variant="outline"
                onClick={() =>
                  refine({ q: undefined, tag: undefined, language: undefined, yearFrom: undefined, yearTo: undefined })
                }
              >
                {m.books_filter_clear()}
              </Button>
            }
          >
            {m.books_no_match()}
          </EmptyState>
        ) : (
          <EmptyState
            icon={BookOpenIcon}
            title={m.books_empty_title()}
            action={
              canCreate ? (
                <div className="flex flex-wrap justify-center gap-2">
                  <Button onClick={() => setEditing('new')}>
                    <PlusIcon aria-hidden />
                    {m.books_new()}
                  </Button>
                  <Button variant="outline" onClick={() => setImporting(true)}>
                    <UploadIcon aria-hidden />
                    {m.books_import()}
                  </Button>
                </div>
              ) : undefined
            }
          >
            {m.books_empty()}
          </EmptyState>
        )
      ) : (
        <>
          <BooksTable
            rows={rows}
            loading={list.isPending}
            sort={listInputOf(search).sort}
            direction={listInputOf(search).direction}
            onSortChange={(sort: BookSortColumn, direction) => refine({ sort, direction })}
            selection={selection}
            onSelectionChange={setSelection}
            columnVisibility={visibility}
            onColumnVisibilityChange={setVisibility}
            actions={{
              canChange,
              onEdit: (book) => setEditing(book),
              onDelete: (book) => deleteBooks([book]),
            }}
          />
          <ListPager
            page={listInputOf(search).page}
            size={listInputOf(search).limit}
            total={list.data?.total ?? 0}
            onChange={(change) => onSearchChange(change)}
          />
        </>
      )}

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
            if (done) setSelection({})
          }}
        />
      ) : null}
    </>
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
