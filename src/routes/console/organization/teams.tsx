import { createFileRoute } from '@tanstack/react-router'
import { TeamsScreen } from '#/features/organizations/components/teams-screen'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/teams')({
  head: () => ({ meta: [{ title: m.console_org_teams() }] }),
  staticData: { crumb: m.console_org_teams },
  component: TeamsScreen,
})
