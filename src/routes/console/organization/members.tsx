import { createFileRoute } from '@tanstack/react-router'
import { MembersScreen } from '#/features/organizations/components/members-screen'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/members')({
  head: () => ({ meta: [{ title: m.console_org_members() }] }),
  staticData: { crumb: m.console_org_members },
  component: MembersScreen,
})
