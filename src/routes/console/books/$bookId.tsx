import { createFileRoute } from '@tanstack/react-router'
import { BookDetailsScreen, type BookFileSlots } from '#/features/books/components/book-details'
import { BookAttachments, BookCoverActions } from '#/features/files'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/books/$bookId')({
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(context.trpc.books.get.queryOptions({ id: params.bookId })),
  head: () => ({ meta: [{ title: m.book_details_crumb() }] }),
  staticData: { crumb: m.book_details_crumb },
  component: BookPage,
})

const bookFiles: BookFileSlots = {
  coverActions: (book) => <BookCoverActions bookId={book.id} hasUploadedCover={book.hasUploadedCover} />,
  attachments: (book) => <BookAttachments bookId={book.id} canUpdate={book.canUpdate} />,
}

function BookPage() {
  const { bookId } = Route.useParams()
  return <BookDetailsScreen bookId={bookId} files={bookFiles} />
}
