import { and, desc, eq, gt, inArray, or, sql } from 'drizzle-orm'
import { type Database, vacuumEmbeddedDatabase } from '#/server/db/client'
import { bookImports, books, users } from '#/server/db/schema'
import { defineJob } from '#/server/jobs/queue'
import { notify } from '#/server/organization-events'
import { parseBooksCsv } from './book-csv'
import { bookColumns } from './book-queries'
import { isUniqueViolation, newBookId } from './book-rows'

/** Files with more rows than this are imported by a job, with progress on the Books page. */
export const queuedImportRows = 1000
/** Rows written per transaction; the import's progress moves forward with each. */
export const importChunkRows = 500

/** A test's stand-in for a server stopping mid-import. */
export class ImportInterrupted extends Error {
  override name = 'ImportInterrupted'
}

/**
 * Writes an import's rows from where it stopped. Each chunk's books and the import's new position are written in one
 * transaction, which also checks the position has not moved meanwhile: after a restart the import resumes at the
 * first row not written, and two runs of it never write a row twice. A row that another book took meanwhile (its
 * ISBN) stops the import for good, with the reason; what was written stays.
 */
export async function runBookImport(db: Database, importId: string, options: { stopAfterChunks?: number } = {}) {
  const [record] = await db.select().from(bookImports).where(eq(bookImports.id, importId))
  if (!record || record.status === 'done' || record.status === 'failed') return
  await db.update(bookImports).set({ status: 'running' }).where(eq(bookImports.id, importId))
  const rows = parseBooksCsv(record.csv).books
  let imported = record.imported
  let chunks = 0
  try {
    while (imported < rows.length) {
      if (options.stopAfterChunks !== undefined && chunks >= options.stopAfterChunks) throw new ImportInterrupted()
      const chunk = rows.slice(imported, imported + importChunkRows)
      const from = imported
      const now = new Date()
      const moved = await db.transaction(async (tx) => {
        const [advanced] = await tx
          .update(bookImports)
          .set({ imported: from + chunk.length })
          .where(and(eq(bookImports.id, importId), eq(bookImports.imported, from)))
          .returning({ id: bookImports.id })
        if (!advanced) return false
        await tx.insert(books).values(
          chunk.map(({ book }) => ({
            id: newBookId(),
            organizationId: record.organizationId,
            createdById: record.createdById,
            createdAt: now,
            updatedAt: now,
            ...bookColumns(book),
          })),
        )
        return true
      })
      // Another run of the same import got there first: it carries on.
      if (!moved) return
      imported += chunk.length
      chunks++
    }
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    await finish(db, importId, 'failed', 'validation_isbn_taken')
    return
  }
  await finish(db, importId, 'done')
  // PGlite has no autovacuum to notice a large import: without fresh statistics the planner stops using the list's
  // indexes and sorts the whole catalogue for every page, and without a vacuum every count reads every row.
  await vacuumEmbeddedDatabase(db, ['books'])
}

/** Ends an import and tells whoever started it (in the bell, and by email if they chose it). */
async function finish(db: Database, importId: string, status: 'done' | 'failed', error?: string) {
  const [ended] = await db
    .update(bookImports)
    .set({ status, error: error ?? null, finishedAt: new Date(), csv: '' })
    .where(and(eq(bookImports.id, importId), inArray(bookImports.status, ['queued', 'running'])))
    .returning()
  if (!ended?.createdById) return
  await notify(db, [ended.createdById], {
    type: status === 'done' ? 'import_finished' : 'import_failed',
    organizationId: ended.organizationId,
    params: { count: String(ended.imported) },
    link: '/console/books',
  })
}

export const bookImportJob = defineJob<{ importId: string }>({
  name: 'book-import',
  retryLimit: 5,
  retryDelaySeconds: 10,
  expireInSeconds: 600,
  run: async (db, { importId }, attempt) => {
    try {
      await runBookImport(db, importId)
    } catch (error) {
      if (attempt.last) await finish(db, importId, 'failed', 'import_failed')
      throw error
    }
  },
})

/** The organization's imports still running, and those that ended in the last day (what the Books page shows). */
export async function recentImports(db: Database, organizationId: string) {
  return db
    .select({
      id: bookImports.id,
      status: bookImports.status,
      rowCount: bookImports.rowCount,
      imported: bookImports.imported,
      error: bookImports.error,
      createdAt: bookImports.createdAt,
      finishedAt: bookImports.finishedAt,
      createdByName: users.name,
    })
    .from(bookImports)
    .leftJoin(users, eq(users.id, bookImports.createdById))
    .where(
      and(
        eq(bookImports.organizationId, organizationId),
        or(
          inArray(bookImports.status, ['queued', 'running']),
          gt(bookImports.finishedAt, sql`now() - interval '1 day'`),
        ),
      ),
    )
    .orderBy(desc(bookImports.createdAt))
    .limit(5)
}
