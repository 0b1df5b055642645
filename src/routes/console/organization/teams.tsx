import { createFileRoute } from '@tanstack/react-router'
import { TeamsScreen } from '#/features/organizations/components/teams-screen'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/teams')({
  // Prefetched for the server render, like every organization page.
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.organizations.full.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.organizations.myTeams.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.organizations.teamMemberships.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: m.console_org_teams() }] }),
  staticData: { crumb: m.console_org_teams },
  component: TeamsScreen,
})
