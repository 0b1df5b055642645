import { createFileRoute, notFound } from '@tanstack/react-router'
import { CustomRolesScreen } from '#/features/organizations/components/custom-roles-screen'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/roles')({
  beforeLoad: ({ context }) => {
    if (!allows(context.consoleSession.permissions, { ac: ['read'] })) throw notFound()
  },
  head: () => ({ meta: [{ title: m.console_org_roles() }] }),
  staticData: { crumb: m.console_org_roles },
  component: CustomRolesScreen,
})
