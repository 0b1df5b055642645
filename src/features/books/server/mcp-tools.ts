import { bookLimits } from '#/lib/book-rules'
import { z } from '#/lib/zod'
import { type McpToolSet, toolRefusal, toolResult } from '#/server/mcp'

/**
 * The books of the API key owner's active organization, through the same procedures as the console, so each tool
 * needs what the page would (book read, book create) and is refused with the same reason.
 */
export const bookMcpTools: McpToolSet = ({ server, asKeyOwner }) => {
  if (!asKeyOwner) return
  const books = asKeyOwner.books

  server.registerTool(
    'list_books',
    {
      title: 'List books',
      description:
        "Books of the API key owner's active organization, newest first, optionally filtered by words in the title, " +
        'authors or ISBN. Pass nextCursor from an answer as `after` for the next page.',
      inputSchema: {
        query: z.string().max(200).optional().describe('Words in the title, authors or ISBN'),
        limit: z.number().int().min(1).max(bookLimits.pageSizeMax).default(20),
        after: z.string().max(1000).optional().describe('nextCursor from the previous answer'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit, after }) => {
      try {
        return toolResult(await books.list({ q: query, limit, after }))
      } catch (error) {
        return toolRefusal(error)
      }
    },
  )

  server.registerTool(
    'get_book',
    {
      title: 'Get a book',
      description: 'One book with its description, by id (as list_books returns it).',
      inputSchema: { id: z.string().min(1).max(100) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      try {
        return toolResult(await books.get({ id }))
      } catch (error) {
        return toolRefusal(error)
      }
    },
  )

  server.registerTool(
    'create_book',
    {
      title: 'Create a book',
      description:
        "Adds a book to the API key owner's active organization. Needs the book create permission there, and room " +
        "in the organization's plan.",
      inputSchema: {
        title: z.string().describe('The title'),
        authors: z.array(z.string()).default([]),
        isbn: z.string().optional().describe('ISBN-10 or ISBN-13'),
        publishedYear: z.number().int().optional(),
        language: z.string().optional().describe('A language code such as en or zh'),
        tags: z.array(z.string()).default([]),
        description: z.string().default(''),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (book) => {
      try {
        const { id } = await books.create({
          title: book.title,
          authors: book.authors,
          isbn: book.isbn ?? null,
          publishedYear: book.publishedYear ?? null,
          language: book.language ?? null,
          tags: book.tags,
          coverUrl: null,
          description: book.description,
        })
        return toolResult(await books.get({ id }))
      } catch (error) {
        return toolRefusal(error)
      }
    },
  )
}
