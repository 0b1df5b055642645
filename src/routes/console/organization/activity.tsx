import { createFileRoute } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { ActivityLog } from '#/features/organizations/components/activity-log'
import { activityListInputOf } from '#/features/organizations/list-inputs'
import { activityListSearch } from '#/features/organizations/search'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/activity')({
  validateSearch: activityListSearch,
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { activity: ['read'] }), 'activity')
  },
  loaderDeps: ({ search }) => search,
  // Prefetched for the server render; a failure shows in the page rather than as an error screen.
  loader: ({ context, deps }) =>
    context.queryClient.prefetchQuery(context.trpc.organizations.activity.queryOptions(activityListInputOf(deps))),
  head: () => ({ meta: [{ title: m.console_org_activity() }] }),
  staticData: { crumb: m.console_org_activity },
  component: ActivityPage,
})

function ActivityPage() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <ActivityLog
      search={search}
      onSearchChange={(change, options) =>
        navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace })
      }
    />
  )
}
