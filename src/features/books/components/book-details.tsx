import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { BookIcon, PencilIcon, Trash2Icon } from 'lucide-react'
import { useState } from 'react'
import Markdown from 'react-markdown'
import { DetailsFields, DetailsHeader, DetailsLayout } from '#/components/details-layout'
import { entityDetailsFields } from '#/components/entity-fields'
import { Button } from '#/components/ui/button'
import type { BookAppManifest } from '#/lib/app-manifest'
import { useConsoleSession } from '#/lib/console-session'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { bookEntity } from '../book-entity'
import type { BookDetails as Book } from '../book-queries'
import { mayChangeBook } from '../book-rules'
import { BookFormDialog } from './book-form-dialog'
import { useDeleteBooks } from './use-delete-books'
import '../book-messages'

/** One book: its cover, what is known of it, and its description rendered from Markdown (never raw HTML). */
export function BookDetailsScreen({ bookId, apps = [] }: { bookId: string; apps?: readonly BookAppManifest[] }) {
  const trpc = useTRPC()
  const query = useQuery(trpc.books.get.queryOptions({ id: bookId }))
  return (
    <DetailsLayout backTo="/console/books" backLabel={m.book_details_back()} query={query}>
      {(book) => <BookDetailsView book={book} apps={apps} />}
    </DetailsLayout>
  )
}

function BookDetailsView({ book, apps }: { book: Book; apps: readonly BookAppManifest[] }) {
  const session = useConsoleSession()
  const navigate = useNavigate()
  const deleteBooks = useDeleteBooks()
  const [editing, setEditing] = useState(false)
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  const granted = session.permissions.book ?? []
  const own = book.createdById === session.user.id
  const canUpdate = mayChangeBook(granted, 'update', own)
  const canDelete = mayChangeBook(granted, 'delete', own)

  const actions =
    canUpdate || canDelete ? (
      <>
        {canUpdate ? (
          <Button variant="outline" onClick={() => setEditing(true)}>
            <PencilIcon aria-hidden />
            {m.books_edit()}
          </Button>
        ) : null}
        {canDelete ? (
          <Button variant="destructive" onClick={() => deleteBooks([book], () => navigate({ to: '/console/books' }))}>
            <Trash2Icon aria-hidden />
            {m.books_delete()}
          </Button>
        ) : null}
      </>
    ) : undefined
  return (
    <>
      <DetailsHeader
        media={
          <div className="grid w-40 shrink-0 gap-2">
            <BookCover book={book} />
            {canUpdate
              ? apps.map(({ name, coverActions: CoverActions }) =>
                  CoverActions ? (
                    <CoverActions key={name} bookId={book.id} hasUploadedCover={book.coverImage !== null} />
                  ) : null,
                )
              : null}
          </div>
        }
        title={book.title}
        subtitle={book.authors.length > 0 ? m.book_details_by({ authors: book.authors.join(', ') }) : undefined}
        actions={actions}
      >
        <BookFacts book={book} />
        <BookTags tags={book.tags} />
        <p className="text-xs text-muted-foreground">
          {m.book_details_added({
            name: book.createdByName ?? m.books_former_member(),
            date: date.format(book.createdAt),
          })}
          {' · '}
          {m.book_details_updated({ date: date.format(book.updatedAt) })}
        </p>
      </DetailsHeader>
      <section className="prose prose-sm max-w-none dark:prose-invert" data-testid="book-description">
        {book.description ? (
          <Markdown skipHtml>{book.description}</Markdown>
        ) : (
          <p className="text-muted-foreground">{m.book_details_no_description()}</p>
        )}
      </section>
      {apps.flatMap(({ name, sections = {} }) =>
        Object.entries(sections).map(([section, Section]) => (
          <Section key={`${name}.${section}`} bookId={book.id} canUpdate={canUpdate} />
        )),
      )}
      {editing ? (
        <BookFormDialog
          book={book}
          open
          onOpenChange={setEditing}
          currentUser={{ id: session.user.id, name: session.user.name }}
        />
      ) : null}
    </>
  )
}

/** What is known of a book beside its cover: the definition's fields shown on its page that hold something. */
export function BookFacts({ book }: { book: Book }) {
  return <DetailsFields labels="beside" fields={entityDetailsFields(bookEntity, book)} />
}

function BookCover({ book }: { book: Book }) {
  const source = book.coverImage?.large ?? book.coverUrl
  return source ? (
    <img
      src={source}
      alt={m.book_details_cover_alt({ title: book.title })}
      referrerPolicy="no-referrer"
      className="h-60 w-40 shrink-0 rounded-md border object-cover"
    />
  ) : (
    <div className="flex h-60 w-40 shrink-0 items-center justify-center rounded-md border bg-secondary">
      <BookIcon className="size-10 text-muted-foreground" aria-hidden />
    </div>
  )
}

/** Each tag opens the list of books filtered by it. */
function BookTags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null
  return (
    <ul className="flex flex-wrap gap-1" aria-label={m.books_col_tags()}>
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to="/console/books"
            search={{ tag }}
            className="rounded-full bg-secondary px-2 py-0.5 text-xs text-secondary-foreground hover:underline"
          >
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  )
}
