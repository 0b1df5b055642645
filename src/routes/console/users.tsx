import { createFileRoute, notFound } from '@tanstack/react-router'
import { UpcomingSection } from '#/features/console/components/coming-soon'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/users')({
  // App admins only; to anyone else the page does not exist (the server refuses its procedures the same way).
  beforeLoad: ({ context }) => {
    if (!context.consoleSession.isAppAdmin) throw notFound()
  },
  head: () => ({ meta: [{ title: m.console_users() }] }),
  staticData: { crumb: m.console_users },
  component: () => <UpcomingSection section="users" />,
})
