import { createFileRoute, notFound } from '@tanstack/react-router'
import { UpcomingSection } from '#/features/console/components/coming-soon'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/books')({
  beforeLoad: ({ context }) => {
    if (!allows(context.consoleSession.permissions, { book: ['read'] })) throw notFound()
  },
  head: () => ({ meta: [{ title: m.console_books() }] }),
  staticData: { crumb: m.console_books },
  component: () => <UpcomingSection section="books" />,
})
