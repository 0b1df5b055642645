import { BookPlusIcon, SearchIcon } from 'lucide-react'
import { lazy } from 'react'
import type { AssistantToolView } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'

const asText = (value: unknown) => (typeof value === 'string' ? value : '')
// Loaded when the assistant asks to create a book: the definition it reads brings zod and the books' words, and these
// views are part of every console page.
const BookToConfirm = lazy(() => import('./book-to-confirm'))

/** How the assistant's conversation shows calls of books' tools (server/assistant-tools.ts). */
export const bookAssistantToolViews: Readonly<Record<string, AssistantToolView>> = {
  search_books: {
    icon: SearchIcon,
    label: ({ input }) => {
      const query = asText(input.query)
      return query ? m.assistant_tool_search_books({ query }) : m.assistant_tool_list_books()
    },
    result: (output) => {
      const books = (Array.isArray(output.books) ? output.books : []).flatMap(
        (book: { title?: unknown; url?: unknown }) =>
          typeof book?.url === 'string' ? [{ title: asText(book.title), url: book.url }] : [],
      )
      return { found: books.length, links: books }
    },
  },
  create_book: {
    icon: BookPlusIcon,
    label: ({ output }) =>
      output ? m.assistant_tool_created({ title: asText(output.title) }) : m.assistant_tool_create_book(),
    result: (output) => ({
      links: typeof output.url === 'string' ? [{ title: m.assistant_tool_open(), url: output.url }] : [],
    }),
    confirm: {
      question: m.assistant_tool_confirm_question,
      details: BookToConfirm,
      accept: m.assistant_tool_confirm,
      decline: m.assistant_tool_cancel,
      declined: m.assistant_tool_declined,
    },
  },
}
