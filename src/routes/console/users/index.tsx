import { createFileRoute } from '@tanstack/react-router'
import { UsersScreen } from '#/features/users/components/users-screen'
import { userListSearch } from '#/features/users/search'
import { userListInputOf } from '#/features/users/user-queries'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/users/')({
  validateSearch: userListSearch,
  loaderDeps: ({ search }) => search,
  // Prefetched for the server render; a failure shows in the page rather than as an error screen.
  loader: ({ context, deps }) =>
    context.queryClient.prefetchQuery(context.trpc.users.list.queryOptions(userListInputOf(deps))),
  head: () => ({ meta: [{ title: m.console_users() }] }),
  component: UsersPage,
})

function UsersPage() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <UsersScreen
      search={search}
      onSearchChange={(change, options) =>
        navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace })
      }
    />
  )
}
