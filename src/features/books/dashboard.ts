import { BookOpenIcon } from 'lucide-react'
import { allows } from '#/lib/access-control'
import { defineDashboardApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'
import { BooksAddedSection } from './components/books-added-section'

/** The Dashboard's books: what the organization added, and the way to its books for a member who sees no numbers. */
export const dashboardApp = defineDashboardApp({
  name: 'books',
  organizationSections: [{ position: 10, component: BooksAddedSection }],
  memberShortcuts: [
    {
      to: '/console/books',
      label: m.dashboard_overview_books,
      icon: BookOpenIcon,
      visible: (session) => allows(session.permissions, { book: ['read'] }),
    },
  ],
})
