import { createFileRoute } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { InvitationsScreen } from '#/features/organizations/components/invitations-screen'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/invitations')({
  // Pending invitations are links into the organization: only those who may invite see them (as the server rules).
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { invitation: ['create'] }), 'invitations')
  },
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.organizations.full.queryOptions()),
      // The roles an invitation may give: the built-in ones and, where the member may read them, the organization's.
      allows(context.consoleSession.permissions, { ac: ['read'] })
        ? context.queryClient.prefetchQuery(context.trpc.organizations.customRoles.queryOptions())
        : undefined,
    ]),
  head: () => ({ meta: [{ title: m.console_org_invitations() }] }),
  staticData: { crumb: m.console_org_invitations },
  component: InvitationsScreen,
})
