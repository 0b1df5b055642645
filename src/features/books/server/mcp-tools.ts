import { z } from '#/lib/zod'
import { type McpToolSet, toolRefusal, toolResult } from '#/server/mcp'
import { bookLimits } from '../book-rules'
import { bookToCreate, bookToolInputShape } from './book-tool-input'

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
      inputSchema: bookToolInputShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (book) => {
      try {
        const { id } = await books.create(bookToCreate(book))
        return toolResult(await books.get({ id }))
      } catch (error) {
        return toolRefusal(error)
      }
    },
  )
}
