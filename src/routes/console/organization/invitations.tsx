import { createFileRoute, notFound } from '@tanstack/react-router'
import { InvitationsScreen } from '#/features/organizations/components/invitations-screen'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/invitations')({
  // Pending invitations are links into the organization: only those who may invite see them (as the server rules).
  beforeLoad: ({ context }) => {
    if (!allows(context.consoleSession.permissions, { invitation: ['create'] })) throw notFound()
  },
  head: () => ({ meta: [{ title: m.console_org_invitations() }] }),
  staticData: { crumb: m.console_org_invitations },
  component: InvitationsScreen,
})
