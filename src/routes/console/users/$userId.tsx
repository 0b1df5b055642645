import { createFileRoute } from '@tanstack/react-router'
import { UserDetailsScreen } from '#/features/users/components/user-details'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/users/$userId')({
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(context.trpc.users.get.queryOptions({ userId: params.userId })),
  head: () => ({ meta: [{ title: m.users_details_crumb() }] }),
  staticData: { crumb: m.users_details_crumb },
  component: UserPage,
})

function UserPage() {
  const { userId } = Route.useParams()
  return <UserDetailsScreen userId={userId} />
}
