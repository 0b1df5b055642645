import { createFileRoute } from '@tanstack/react-router'
import { ConfigurationScreen } from '#/features/configuration/components/configuration-screen'
import { requireConsoleAccess } from '#/features/console/console-access'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/configuration')({
  // App admins only; to anyone else the page does not exist (the server refuses its procedures the same way).
  beforeLoad: ({ context }) => {
    requireConsoleAccess(context.consoleSession.isAppAdmin, 'configuration')
  },
  head: () => ({ meta: [{ title: m.console_configuration() }] }),
  staticData: { crumb: m.console_configuration },
  loader: ({ context }) => context.queryClient.prefetchQuery(context.trpc.configuration.get.queryOptions()),
  component: ConfigurationScreen,
})
