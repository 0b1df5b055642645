import { createFileRoute } from '@tanstack/react-router'
import { bookApps } from '#/book-apps.gen'
import { BookDetailsScreen } from '#/features/books/components/book-details'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/books/$bookId')({
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(context.trpc.books.get.queryOptions({ id: params.bookId })),
  head: () => ({ meta: [{ title: m.book_details_crumb() }] }),
  staticData: { crumb: m.book_details_crumb },
  component: BookPage,
})

function BookPage() {
  const { bookId } = Route.useParams()
  return <BookDetailsScreen bookId={bookId} apps={bookApps} />
}
