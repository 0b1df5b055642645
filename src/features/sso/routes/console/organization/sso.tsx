import { createFileRoute } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { SsoScreen } from '#/features/sso/components/sso-screen'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/sso')({
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { organization: ['update', 'delete'] }), 'sso')
  },
  // Prefetched for the server render; a failure shows in the page rather than as an error screen.
  loader: ({ context }) => context.queryClient.prefetchQuery(context.trpc.sso.get.queryOptions()),
  head: () => ({ meta: [{ title: m.console_org_sso() }] }),
  staticData: { crumb: m.console_org_sso },
  component: SsoScreen,
})
