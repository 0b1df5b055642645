import { recordFromTool, toolInputShapeOf } from '#/lib/entity'
import type { z } from '#/lib/zod'
import { bookEntity } from '../book-entity'

/**
 * A book as a model's tool call gives it (MCP's create_book, the assistant's), from its definition. Loose on purpose,
 * apart from sanity caps: the procedure checks each field and says what is wrong in the caller's language.
 */
export const bookToolInputShape = toolInputShapeOf(bookEntity)

/** What books.create takes, from a tool call's book. */
export function bookToCreate(
  book: { [Key in keyof typeof bookToolInputShape]: z.output<(typeof bookToolInputShape)[Key]> },
) {
  return recordFromTool(bookEntity, book)
}
