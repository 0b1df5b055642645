import { createFileRoute, notFound, Outlet } from '@tanstack/react-router'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/books')({
  beforeLoad: ({ context }) => {
    if (!allows(context.consoleSession.permissions, { book: ['read'] })) throw notFound()
  },
  staticData: { crumb: m.console_books },
  component: Outlet,
})
