import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/users')({
  // App admins only; to anyone else the page does not exist (the server refuses its procedures the same way).
  beforeLoad: ({ context }) => {
    requireConsoleAccess(context.consoleSession.isAppAdmin, 'users')
  },
  staticData: { crumb: m.console_users },
  component: Outlet,
})
