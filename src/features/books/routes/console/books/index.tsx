import { createFileRoute } from '@tanstack/react-router'
import { listInputOf } from '#/features/books/book-queries'
import { BooksScreen } from '#/features/books/components/books-screen'
import { bookListSearch } from '#/features/books/search'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/books/')({
  validateSearch: bookListSearch,
  loaderDeps: ({ search }) => search,
  // Prefetched for the server render; a failure shows in the page rather than as an error screen.
  loader: ({ context, deps }) =>
    context.queryClient.prefetchQuery(context.trpc.books.list.queryOptions(listInputOf(deps))),
  head: () => ({ meta: [{ title: m.console_books() }] }),
  component: BooksPage,
})

function BooksPage() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <BooksScreen
      search={search}
      onSearchChange={(change, options) =>
        navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace })
      }
    />
  )
}
