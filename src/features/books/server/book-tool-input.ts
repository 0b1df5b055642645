import { z } from '#/lib/zod'

/**
 * A book as a model's tool call gives it (MCP's create_book, the assistant's). Loose on purpose, apart from sanity
 * caps: the procedure checks each field and says what is wrong in the caller's language.
 */
export const bookToolInputShape = {
  title: z.string().max(2000).describe('The title'),
  authors: z.array(z.string().max(2000)).max(100).default([]),
  isbn: z.string().max(100).optional().describe('ISBN-10 or ISBN-13'),
  publishedYear: z.number().int().optional(),
  language: z.string().max(100).optional().describe('A language code such as en or zh'),
  tags: z.array(z.string().max(2000)).max(100).default([]),
  description: z.string().max(20_000).default(''),
}

const bookToolInput = z.object(bookToolInputShape)

/** What books.create takes, from a tool call's book. */
export function bookToCreate(book: z.output<typeof bookToolInput>) {
  return {
    title: book.title,
    authors: book.authors,
    isbn: book.isbn ?? null,
    publishedYear: book.publishedYear ?? null,
    language: book.language ?? null,
    tags: book.tags,
    coverUrl: null,
    description: book.description,
  }
}
