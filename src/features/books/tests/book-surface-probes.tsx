// The books screens' parts that show a book's fields, rendered alone for book-entity-surfaces.test.ts: the form's
// inputs, a one-row list table and the facts on a book's page.
import { ListTable } from '#/components/list-table'
import { formTextsOf } from '#/lib/entity'
import { useAppForm } from '#/lib/form'
import { type BookInput, bookEntity } from '../book-entity'
import type { BookDetails, BookRow } from '../book-queries'
import { bookColumns } from '../components/book-columns'
import { BookFacts } from '../components/book-details'
import { BookFormFields } from '../components/book-form-dialog'

const when = new Date('2026-01-02T03:04:05Z')

export function BookFormProbe({ book }: { book: BookInput }) {
  const form = useAppForm({ defaultValues: formTextsOf(bookEntity, book) })
  return <BookFormFields form={form} />
}

export function BookTableProbe({ book }: { book: BookInput }) {
  const row = {
    ...book,
    id: 'probe',
    createdById: null,
    createdByName: 'Olga',
    createdAt: when,
    updatedAt: when,
    coverImage: null,
  } as unknown as BookRow
  // The title links to the book's page, which needs the router: its header and cell are checked in the browser.
  return (
    <ListTable
      list={{ rows: [row], loading: false, columnVisibility: { title: false } }}
      columns={bookColumns}
      testId="books"
      rowTestId="book-row"
    />
  )
}

export function BookDetailsProbe({ book }: { book: BookInput }) {
  return (
    <BookFacts
      book={{ ...book, id: 'probe', createdById: null, createdAt: when, updatedAt: when } as unknown as BookDetails}
    />
  )
}
