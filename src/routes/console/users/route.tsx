import { createFileRoute, notFound, Outlet } from '@tanstack/react-router'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/users')({
  // App admins only; to anyone else the page does not exist (the server refuses its procedures the same way).
  beforeLoad: ({ context }) => {
    if (!context.consoleSession.isAppAdmin) throw notFound()
  },
  staticData: { crumb: m.console_users },
  component: Outlet,
})
