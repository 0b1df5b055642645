import { createFileRoute } from '@tanstack/react-router'
import { apps } from '#/apps.gen'
import { DashboardScreen } from '#/features/dashboard/components/dashboard-screen'
import { dashboardInputOf, dashboardRangeOf } from '#/features/dashboard/dashboard-queries'
import { dashboardSearch } from '#/features/dashboard/search'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/')({
  validateSearch: dashboardSearch,
  loaderDeps: ({ search }) => search,
  // Prefetched for the server render, and only what the reader may see; a failure shows in the page.
  loader: async ({ context, deps, cause }) => {
    const { queryClient, trpc, consoleSession } = context
    const settings = await queryClient.ensureQueryData(trpc.settings.public.queryOptions())
    const range = dashboardRangeOf(deps, settings.analyticsTimeZone)
    if (range.problem) return
    const input = dashboardInputOf(range)
    const prefetched = Promise.all([
      consoleSession.isAppAdmin ? queryClient.prefetchQuery(trpc.dashboard.site.queryOptions(input)) : null,
      // The installed apps' sections of the site's numbers (the traffic), each its own query.
      ...(consoleSession.isAppAdmin
        ? apps.map((app) => app.prefetchSiteDashboard?.({ queryClient, trpc }, input))
        : []),
      ...(allows(consoleSession.permissions, { organization: ['update'] })
        ? [
            queryClient.prefetchQuery(trpc.dashboard.organization.queryOptions(input)),
            ...apps.map((app) => app.prefetchOrganizationDashboard?.({ queryClient, trpc }, input)),
          ]
        : []),
    ])
    // A new range chosen on the page switches at once and keeps the old numbers until the new ones arrive, rather
    // than holding the picker at its old value while the page waits.
    if (cause !== 'stay') await prefetched
  },
  head: () => ({ meta: [{ title: m.console_dashboard() }] }),
  staticData: { crumb: m.console_dashboard },
  component: DashboardPage,
})

function DashboardPage() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <DashboardScreen
      search={search}
      onSearchChange={(change, options) =>
        navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace })
      }
    />
  )
}
