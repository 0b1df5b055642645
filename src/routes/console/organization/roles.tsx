import { createFileRoute } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { CustomRolesScreen } from '#/features/organizations/components/custom-roles-screen'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/roles')({
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { ac: ['read'] }), 'roles')
  },
  loader: ({ context }) => context.queryClient.prefetchQuery(context.trpc.organizations.customRoles.queryOptions()),
  head: () => ({ meta: [{ title: m.console_org_roles() }] }),
  staticData: { crumb: m.console_org_roles },
  component: CustomRolesScreen,
})
