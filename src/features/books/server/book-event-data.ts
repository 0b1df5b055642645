import { eventFieldsOf } from '#/lib/entity'
import { bookEntity } from '../book-entity'
import type { books } from './schema'

type BookRow = typeof books.$inferSelect

/** A book as webhook receivers get it: what the console shows, without the columns kept for searching. */
export function bookEventData(book: BookRow) {
  return {
    id: book.id,
    ...eventFieldsOf(bookEntity, book),
    createdAt: book.createdAt.toISOString(),
    updatedAt: book.updatedAt.toISOString(),
  }
}
