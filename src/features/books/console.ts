import { BookOpenIcon } from 'lucide-react'
import { allows } from '#/lib/access-control'
import { defineConsoleApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'
import { bookAssistantToolViews } from './components/assistant-tool-views'

/**
 * Books in the console: its page in the navigation, for those who may read the organization's books, and how the
 * assistant's conversation shows its tools.
 */
export const consoleApp = defineConsoleApp({
  name: 'books',
  consoleNav: [
    {
      section: 'main',
      position: 10,
      to: '/console/books',
      label: m.console_books,
      icon: BookOpenIcon,
      visible: (session) => allows(session.permissions, { book: ['read'] }),
    },
  ],
  guardedPages: { books: { name: m.console_books, grantedBy: 'organization' } },
  assistantTools: bookAssistantToolViews,
  assistantSuggestions: [m.assistant_suggestion_books],
})
