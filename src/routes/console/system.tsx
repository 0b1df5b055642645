import { createFileRoute } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { SystemScreen } from '#/features/system/components/system-screen'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/system')({
  // App admins only; to anyone else the page does not exist (the server refuses its procedures the same way).
  beforeLoad: ({ context }) => {
    requireConsoleAccess(context.consoleSession.isAppAdmin, 'system')
  },
  head: () => ({ meta: [{ title: m.console_system() }] }),
  staticData: { crumb: m.console_system },
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.system.status.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.system.jobs.queryOptions()),
    ]),
  component: SystemScreen,
})
