import type { Database } from '#/server/db/client'
import type { ForeignRecords } from '../../../../tests/integration/foreign-records'
import { addBook } from '../server/book-queries'
import { book } from './book-fixtures'

export const foreignRecordKinds = ['book']
export const foreignRecordSecrets = ['Not yours']

/** A book of the other organization, and the books' procedures that take one, as the authorization matrix calls them. */
export async function foreignRecordInputs(db: Database, foreign: ForeignRecords): Promise<Record<string, unknown>> {
  const bookId = await addBook(db, { id: foreign.organizationId, ownerId: foreign.ownerId, title: 'Not yours' })
  foreign.apps.bookId = bookId
  return {
    'books.get': { id: bookId },
    'books.update': { id: bookId, book: book('Taken over') },
    'books.delete': { ids: [bookId] },
    'books.restore': { ids: [bookId] },
    'books.addTags': { ids: [bookId], tags: ['mine'] },
  }
}
