import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/books')({
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { book: ['read'] }), 'books')
  },
  staticData: { crumb: m.console_books },
  component: Outlet,
})
