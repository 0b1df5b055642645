import { lt } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { bookLimits } from '../book-rules'
import { books } from './schema'

/** Deletes for good the books deleted more than the retention period ago; returns how many. */
export async function purgeDeletedBooks(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - bookLimits.restoreDays * 86_400_000)
  const purged = await db.delete(books).where(lt(books.deletedAt, cutoff)).returning({ id: books.id })
  return purged.length
}
