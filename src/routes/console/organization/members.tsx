import { createFileRoute } from '@tanstack/react-router'
import { MembersScreen } from '#/features/organizations/components/members-screen'
import { memberListInputOf } from '#/features/organizations/list-inputs'
import { memberListSearch } from '#/features/organizations/search'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/members')({
  validateSearch: memberListSearch,
  loaderDeps: ({ search }) => search,
  // Prefetched for the server render; a failure shows in the page rather than as an error screen.
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.organizations.members.queryOptions(memberListInputOf(deps))),
      // The role filter and the role dialog offer the organization's own roles, where the member may read them.
      allows(context.consoleSession.permissions, { ac: ['read'] })
        ? context.queryClient.prefetchQuery(context.trpc.organizations.customRoles.queryOptions())
        : undefined,
    ]),
  head: () => ({ meta: [{ title: m.console_org_members() }] }),
  staticData: { crumb: m.console_org_members },
  component: MembersPage,
})

function MembersPage() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <MembersScreen
      search={search}
      onSearchChange={(change, options) =>
        navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace })
      }
    />
  )
}
