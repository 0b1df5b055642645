import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { ArrowLeftIcon, BookIcon, PencilIcon, Trash2Icon } from 'lucide-react'
import { useState } from 'react'
import Markdown from 'react-markdown'
import { Button } from '#/components/ui/button'
import { useConsoleSession } from '#/lib/console-session'
import { describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { BookFormDialog } from './book-form-dialog'
import { useDeleteBooks } from './use-delete-books'

/** One book: its cover, what is known of it, and its description rendered from Markdown (never raw HTML). */
export function BookDetailsScreen({ bookId }: { bookId: string }) {
  const trpc = useTRPC()
  const session = useConsoleSession()
  const navigate = useNavigate()
  const deleteBooks = useDeleteBooks()
  const [editing, setEditing] = useState(false)
  const query = useQuery(trpc.books.get.queryOptions({ id: bookId }))
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  const languageNames = new Intl.DisplayNames([currentIntlLocale()], { type: 'language' })

  const back = (
    <Link
      to="/console/books"
      className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
    >
      <ArrowLeftIcon className="size-4" aria-hidden />
      {m.book_details_back()}
    </Link>
  )
  if (query.isError) {
    return (
      <div className="grid gap-4">
        {back}
        <p role="alert" className="text-destructive">
          {describeError(query.error)}
        </p>
      </div>
    )
  }
  const book = query.data
  if (!book) return <div className="h-64 animate-pulse rounded-lg bg-muted" aria-hidden />

  const granted = session.permissions.book ?? []
  const own = book.createdById === session.user.id
  const canUpdate = granted.includes('update') || (granted.includes('update-own') && own)
  const canDelete = granted.includes('delete') || (granted.includes('delete-own') && own)

  return (
    <article className="grid gap-6">
      {back}
      <div className="flex flex-col gap-6 sm:flex-row">
        {book.coverUrl ? (
          <img
            src={book.coverUrl}
            alt={m.book_details_cover_alt({ title: book.title })}
            referrerPolicy="no-referrer"
            className="h-60 w-40 shrink-0 rounded-md border object-cover"
          />
        ) : (
          <div className="flex h-60 w-40 shrink-0 items-center justify-center rounded-md border bg-secondary">
            <BookIcon className="size-10 text-muted-foreground" aria-hidden />
          </div>
        )}
        <div className="grid min-w-0 content-start gap-3">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{book.title}</h1>
          {book.authors.length > 0 ? (
            <p className="text-muted-foreground">{m.book_details_by({ authors: book.authors.join(', ') })}</p>
          ) : null}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {book.isbn ? (
              <>
                <dt className="text-muted-foreground">{m.books_col_isbn()}</dt>
                <dd>{book.isbn}</dd>
              </>
            ) : null}
            {book.publishedYear ? (
              <>
                <dt className="text-muted-foreground">{m.books_col_year()}</dt>
                <dd>{book.publishedYear}</dd>
              </>
            ) : null}
            {book.language ? (
              <>
                <dt className="text-muted-foreground">{m.books_col_language()}</dt>
                <dd>{languageNames.of(book.language) ?? book.language}</dd>
              </>
            ) : null}
          </dl>
          {book.tags.length > 0 ? (
            <ul className="flex flex-wrap gap-1" aria-label={m.books_col_tags()}>
              {book.tags.map((tag) => (
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
          ) : null}
          <p className="text-xs text-muted-foreground">
            {m.book_details_added({
              name: book.createdByName ?? m.books_former_member(),
              date: date.format(book.createdAt),
            })}
            {' · '}
            {m.book_details_updated({ date: date.format(book.updatedAt) })}
          </p>
          <div className="flex flex-wrap gap-2">
            {canUpdate ? (
              <Button variant="outline" onClick={() => setEditing(true)}>
                <PencilIcon aria-hidden />
                {m.books_edit()}
              </Button>
            ) : null}
            {canDelete ? (
              <Button
                variant="destructive"
                onClick={() => deleteBooks([book], () => navigate({ to: '/console/books' }))}
              >
                <Trash2Icon aria-hidden />
                {m.books_delete()}
              </Button>
            ) : null}
          </div>
        </div>
      </div>
      <section className="prose prose-sm max-w-none dark:prose-invert" data-testid="book-description">
        {book.description ? (
          <Markdown skipHtml>{book.description}</Markdown>
        ) : (
          <p className="text-muted-foreground">{m.book_details_no_description()}</p>
        )}
      </section>
      {editing ? (
        <BookFormDialog
          book={book}
          open
          onOpenChange={setEditing}
          currentUser={{ id: session.user.id, name: session.user.name }}
        />
      ) : null}
    </article>
  )
}
