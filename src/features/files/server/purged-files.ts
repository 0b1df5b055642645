import { inArray, isNull } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { deleteFoldersLater } from '#/server/files/file-jobs'
import { organizationFiles } from './schema'

/**
 * The maintenance task after books are purged: their files' rows are left without a book; their objects are queued
 * for deletion and the rows go (the quota no longer counts them). Returns how many.
 */
export async function deletePurgedBooksFiles(db: Database): Promise<number> {
  const orphans = await db
    .select({ id: organizationFiles.id, folder: organizationFiles.folder })
    .from(organizationFiles)
    .where(isNull(organizationFiles.bookId))
    .limit(1000)
  if (orphans.length === 0) return 0
  await deleteFoldersLater(orphans.map((row) => row.folder))
  await db.delete(organizationFiles).where(
    inArray(
      organizationFiles.id,
      orphans.map((row) => row.id),
    ),
  )
  return orphans.length
}
