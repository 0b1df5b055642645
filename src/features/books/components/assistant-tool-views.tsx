import { BookPlusIcon, SearchIcon } from 'lucide-react'
import type { AssistantToolView } from '#/lib/app-manifest'
import { keysWhere, textOf } from '#/lib/entity'
import { m } from '#/paraglide/messages'
import { bookEntity } from '../book-entity'

const asText = (value: unknown) => (typeof value === 'string' ? value : '')
const asList = (value: unknown) => (Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : [])

/** The book the model wrote, as the person sees it before it is added: the fields it filled in. */
function BookToConfirm({ input }: { input: Record<string, unknown> }) {
  const rows = keysWhere(bookEntity, (field) => field.tool !== false).map((key) => {
    const field = bookEntity.fields[key]
    const value = input[key]
    // Only what a tool may send: text, a number or a list of texts.
    const given = typeof value === 'string' || typeof value === 'number' ? value : asList(value)
    return [field.label(), textOf(given)] as const
  })
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      {rows
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
    </dl>
  )
}

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
