import { tool } from 'ai'
import { z } from '#/lib/zod'
import { type AssistantTools, ToolRefusal } from '#/server/ai/assistant-tools'
import { notify } from '#/server/organization-events'
import { refusalText } from '#/server/trpc/refusal-text'
import { bookToCreate, bookToolInputShape } from './book-tool-input'

/** A refusal (no permission, a plan limit, invalid input) becomes the tool's error, in words the model can pass on. */
async function asTheUser<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    const text = refusalText(error)
    if (text === undefined) throw error
    throw new ToolRefusal(text)
  }
}

/**
 * The organization's books for the console assistant, through the console's own procedures: each tool needs what
 * the Books page would (book read, book create) and is refused for the same reasons. Creating asks the person first.
 */
export const bookAssistantTools: AssistantTools = ({ asUser, locale, db, userId }) => ({
  tools: {
    search_books: tool({
      description:
        "Searches the books of the person's active organization by words in the title, authors or ISBN (an empty " +
        'query lists the newest). Returns at most `limit` books with their ids and links.',
      inputSchema: z.object({
        query: z.string().max(200).default('').describe('Words in the title, authors or ISBN'),
        limit: z.number().int().min(1).max(25).default(10),
      }),
      execute: ({ query, limit }) =>
        asTheUser(async () => {
          const page = await asUser.books.list({ q: query.trim() || undefined, limit: limit + 1 })
          return {
            books: page.items.slice(0, limit).map((book) => ({
              id: book.id,
              title: book.title,
              authors: book.authors,
              publishedYear: book.publishedYear,
              url: `/${locale}/console/books/${book.id}`,
            })),
            more: page.items.length > limit,
          }
        }),
    }),
    create_book: tool({
      description:
        "Adds a book to the person's active organization. The person is asked to confirm before it is written; it " +
        "needs the book create permission and room in the organization's plan.",
      inputSchema: z.object(bookToolInputShape),
      execute: (book) =>
        asTheUser(async () => {
          const { id } = await asUser.books.create(bookToCreate(book))
          await notify(db, [userId], {
            type: 'assistant_book_created',
            params: { title: book.title },
            link: `/console/books/${id}`,
          })
          return { id, title: book.title, url: `/${locale}/console/books/${id}` }
        }),
    }),
  },
  confirmFirst: ['create_book'],
})
