import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import { dashboardRangeInput } from '#/features/dashboard/server'
import { type Action, denialMessage } from '#/lib/access-control'
import { serverApps } from '#/server/apps.gen'
import type { Database } from '#/server/db/client'
import { bookImports, books, users } from '#/server/db/schema'
import { enqueue } from '#/server/jobs/queue'
import { publishEvent, type RecordedEvent, recordEvent, sendRecordedEvents } from '#/server/organization-events'
import { getSiteSettings } from '#/server/settings'
import { AppError, createRouter, orgProcedure } from '#/server/trpc/init'
import { bookLimits, mayChangeBook } from '../book-rules'
import { toIsbn13 } from '../isbn'
import {
  bookFilters,
  bookIdInput,
  bookIdsInput,
  bookInput,
  bookListInput,
  importBooksInput,
  tagBooksInput,
  updateBookInput,
} from '../schemas'
import { booksToCsv, firstIssues, type ImportIssue, parseBooksCsv } from './book-csv'
import { bookEventData } from './book-event-data'
import { bookImportJob, queuedImportRows, recentImports, runBookImport } from './book-import-job'
import { assertBookCapacity } from './book-limits'
import { bookColumns, bookConditions, bookFacets, booksWithIsbn13, countBooks, listBooks } from './book-queries'
import { isUniqueViolation, newBookId } from './book-rows'
import { readBooksAdded } from './books-added'
import '../book-messages'

/** A refusal shown beside one field of the form, like a schema's own messages (`message` is a message key). */
function fieldError(field: string, message: string): AppError {
  return new AppError({ code: 'BAD_REQUEST', appCode: 'BAD_REQUEST', message, field })
}

const notFound = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'BOOK_NOT_FOUND', message: 'This book does not exist' })

interface BookCaller {
  user: { id: string }
  permissions: { book?: readonly Action[] }
}

/**
 * Update and delete: `book:update` (or delete) allows any book; `update-own` (or delete-own) only the caller's own.
 * One book the caller may not change refuses the whole request.
 */
function requireBookAction(ctx: BookCaller, action: 'update' | 'delete', rows: { createdById: string | null }[]) {
  const own = rows.every((row) => row.createdById === ctx.user.id)
  if (mayChangeBook(ctx.permissions.book ?? [], action, own)) return
  throw new AppError({
    code: 'FORBIDDEN',
    appCode: 'NOT_ALLOWED_TO_ACCESS_RESOURCE',
    message: denialMessage({ book: [action] }),
    params: { resource: 'book' },
  })
}

type CoverImage = { small: string; large: string }

// An app that keeps books' covers (files) says so in its server manifest: books adds the field to it, so the core's
// manifest names no book and the field goes when books does (docs/decisions/042).
declare module '#/server/app-manifest' {
  interface ServerAppManifest {
    /** The books' uploaded covers, as links for members, by book (the book lists and pages show them). */
    bookCovers?: () => Promise<
      (
        db: Pick<Database, 'select'>,
        organizationId: string,
        bookIds: string[],
      ) => Promise<ReadonlyMap<string, CoverImage>>
    >
  }
}

/** The books' uploaded covers, from the installed app that keeps them (none without one). */
async function bookCoverImages(db: Database, organizationId: string, bookIds: string[]) {
  const covers = new Map<string, CoverImage>()
  for (const app of serverApps) {
    if (!app.bookCovers || bookIds.length === 0) continue
    for (const [id, cover] of await (await app.bookCovers())(db, organizationId, bookIds)) covers.set(id, cover)
  }
  return covers
}

export const booksRouter = createRouter({
  /** The books added per bucket of the Dashboard's range, for those who see the organization's numbers there. */
  added: orgProcedure({ organization: ['update'] })
    .input(dashboardRangeInput)
    .query(async ({ ctx, input }) => {
      const { analyticsTimeZone: timeZone } = await getSiteSettings(ctx.db)
      const added = await readBooksAdded(ctx.db, ctx.organization.id, { ...input, timeZone })
      return { range: { from: input.from, to: input.to, granularity: input.granularity, timeZone }, ...added }
    }),
  /** A page of the active organization's books, filtered and sorted. */
  list: orgProcedure({ book: ['read'] })
    .input(bookListInput)
    .query(async ({ ctx, input }) => {
      const page = await listBooks(ctx.db, ctx.organization.id, input)
      const covers = await bookCoverImages(
        ctx.db,
        ctx.organization.id,
        page.items.map((item) => item.id),
      )
      return { ...page, items: page.items.map((item) => ({ ...item, coverImage: covers.get(item.id) ?? null })) }
    }),

  /** How many books the filters select. */
  count: orgProcedure({ book: ['read'] })
    .input(bookFilters.partial())
    .query(({ ctx, input }) => countBooks(ctx.db, ctx.organization.id, input)),

  /** The tags and languages in use, for the filters. */
  facets: orgProcedure({ book: ['read'] }).query(({ ctx }) => bookFacets(ctx.db, ctx.organization.id)),

  /** One book with its description. */
  get: orgProcedure({ book: ['read'] })
    .input(bookIdInput)
    .query(async ({ ctx, input }) => {
      const [row] = await ctx.db
        .select({ book: books, createdByName: users.name })
        .from(books)
        .leftJoin(users, eq(users.id, books.createdById))
        .where(and(eq(books.id, input.id), eq(books.organizationId, ctx.organization.id), isNull(books.deletedAt)))
      if (!row) throw notFound()
      const { searchText: _search, isbn13: _isbn13, deletedAt: _deleted, organizationId: _org, ...book } = row.book
      const covers = await bookCoverImages(ctx.db, ctx.organization.id, [book.id])
      return { ...book, createdByName: row.createdByName, coverImage: covers.get(book.id) ?? null }
    }),

  create: orgProcedure({ book: ['create'] })
    .input(bookInput)
    .mutation(async ({ ctx, input }) => {
      const columns = bookColumns(input)
      await assertBookCapacity(ctx.db, ctx.organization.id, 1)
      if (columns.isbn13 && (await booksWithIsbn13(ctx.db, ctx.organization.id, [columns.isbn13])).length > 0) {
        throw fieldError('isbn', 'validation_isbn_taken')
      }
      const now = new Date()
      try {
        const [created] = await ctx.db
          .insert(books)
          .values({
            id: newBookId(),
            organizationId: ctx.organization.id,
            createdById: ctx.user.id,
            createdAt: now,
            updatedAt: now,
            ...columns,
          })
          .returning()
        if (created) {
          await publishEvent(ctx.db, {
            organizationId: ctx.organization.id,
            type: 'book.created',
            data: bookEventData(created),
          })
        }
        return { id: created?.id ?? '' }
      } catch (error) {
        // Another request added the same ISBN between the check and the insert.
        if (isUniqueViolation(error)) throw fieldError('isbn', 'validation_isbn_taken')
        throw error
      }
    }),

  update: orgProcedure({})
    .input(updateBookInput)
    .mutation(async ({ ctx, input }) => {
      const [existing] = await ctx.db
        .select({ id: books.id, createdById: books.createdById })
        .from(books)
        .where(and(eq(books.id, input.id), eq(books.organizationId, ctx.organization.id), isNull(books.deletedAt)))
      if (!existing) throw notFound()
      requireBookAction(ctx, 'update', [existing])
      const columns = bookColumns(input.book)
      if (
        columns.isbn13 &&
        (await booksWithIsbn13(ctx.db, ctx.organization.id, [columns.isbn13], existing.id)).length > 0
      ) {
        throw fieldError('isbn', 'validation_isbn_taken')
      }
      try {
        const [updated] = await ctx.db
          .update(books)
          .set({ ...columns, updatedAt: new Date() })
          .where(and(eq(books.id, existing.id), isNull(books.deletedAt)))
          .returning()
        if (!updated) throw notFound()
        await publishEvent(ctx.db, {
          organizationId: ctx.organization.id,
          type: 'book.updated',
          data: bookEventData(updated),
        })
        return { id: updated.id, updatedAt: updated.updatedAt }
      } catch (error) {
        if (isUniqueViolation(error)) throw fieldError('isbn', 'validation_isbn_taken')
        throw error
      }
    }),

  /** Moves books to the bin, whence `restore` brings them back for 30 days. */
  delete: orgProcedure({})
    .input(bookIdsInput)
    .mutation(async ({ ctx, input }) => {
      const ids = [...new Set(input.ids)]
      const rows = await ctx.db
        .select({ id: books.id, createdById: books.createdById })
        .from(books)
        .where(and(inArray(books.id, ids), eq(books.organizationId, ctx.organization.id), isNull(books.deletedAt)))
      if (rows.length !== ids.length) throw notFound()
      requireBookAction(ctx, 'delete', rows)
      const deletedAt = new Date()
      await ctx.db
        .transaction(async (tx) => {
          await tx
            .update(books)
            .set({ deletedAt })
            .where(and(inArray(books.id, ids), eq(books.organizationId, ctx.organization.id)))
          const deliveries: RecordedEvent[] = []
          for (const id of ids) {
            deliveries.push(
              ...(await recordEvent(tx, {
                organizationId: ctx.organization.id,
                type: 'book.deleted',
                data: { id, deletedAt: deletedAt.toISOString() },
              })),
            )
          }
          return deliveries
        })
        .then(sendRecordedEvents)
      return { ids }
    }),

  /** Undoes a delete (until the book is purged). */
  restore: orgProcedure({})
    .input(bookIdsInput)
    .mutation(async ({ ctx, input }) => {
      const ids = [...new Set(input.ids)]
      const rows = await ctx.db
        .select({ id: books.id, createdById: books.createdById, isbn13: books.isbn13 })
        .from(books)
        .where(and(inArray(books.id, ids), eq(books.organizationId, ctx.organization.id), isNotNull(books.deletedAt)))
      if (rows.length !== ids.length) throw notFound()
      requireBookAction(ctx, 'delete', rows)
      await assertBookCapacity(ctx.db, ctx.organization.id, rows.length)
      const isbns = rows.flatMap((row) => (row.isbn13 ? [row.isbn13] : []))
      if ((await booksWithIsbn13(ctx.db, ctx.organization.id, isbns)).length > 0) {
        throw new AppError({
          code: 'CONFLICT',
          appCode: 'BOOK_ISBN_TAKEN',
          message: 'Another book now has this ISBN',
        })
      }
      // A restored book comes back as book.updated with all of it, so a receiver that removed it can add it again.
      await ctx.db
        .transaction(async (tx) => {
          const restored = await tx
            .update(books)
            .set({ deletedAt: null })
            .where(and(inArray(books.id, ids), eq(books.organizationId, ctx.organization.id)))
            .returning()
          const deliveries: RecordedEvent[] = []
          for (const book of restored) {
            deliveries.push(
              ...(await recordEvent(tx, {
                organizationId: ctx.organization.id,
                type: 'book.updated',
                data: bookEventData(book),
              })),
            )
          }
          return deliveries
        })
        .then(sendRecordedEvents)
      return { ids }
    }),

  /** Adds tags to several books (each keeps at most 10). */
  addTags: orgProcedure({})
    .input(tagBooksInput)
    .mutation(async ({ ctx, input }) => {
      const ids = [...new Set(input.ids)]
      const deliveries: RecordedEvent[] = []
      const tagged = await ctx.db.transaction(async (tx) => {
        const rows = await tx
          .select({ id: books.id, createdById: books.createdById, tags: books.tags })
          .from(books)
          .where(and(inArray(books.id, ids), eq(books.organizationId, ctx.organization.id), isNull(books.deletedAt)))
          .for('update')
        if (rows.length !== ids.length) throw notFound()
        requireBookAction(ctx, 'update', rows)
        const now = new Date()
        for (const row of rows) {
          const known = new Set(row.tags.map((tag) => tag.toLowerCase()))
          const tags = [...row.tags, ...input.tags.filter((tag) => !known.has(tag.toLowerCase()))]
          if (tags.length > bookLimits.tagsMax) throw fieldError('tags', 'validation_book_tags_too_many')
          if (tags.length !== row.tags.length) {
            const [updated] = await tx
              .update(books)
              .set({ tags, updatedAt: now })
              .where(eq(books.id, row.id))
              .returning()
            if (updated) {
              deliveries.push(
                ...(await recordEvent(tx, {
                  organizationId: ctx.organization.id,
                  type: 'book.updated',
                  data: bookEventData(updated),
                })),
              )
            }
          }
        }
        return { ids }
      })
      await sendRecordedEvents(deliveries)
      return tagged
    }),

  /** Imports still being written by a job, and those that ended in the last day, with their progress. */
  imports: orgProcedure({ book: ['read'] }).query(({ ctx }) => recentImports(ctx.db, ctx.organization.id)),

  /**
   * Imports a CSV file: `dryRun` checks every row and answers a preview; otherwise all rows are written, or, when
   * any row has a problem, none. A file of more than 1,000 rows is written by a job: the answer names the import,
   * whose progress `imports` reports.
   */
  import: orgProcedure({ book: ['create'] })
    .input(importBooksInput)
    .mutation(async ({ ctx, input }) => {
      const parsed = parseBooksCsv(input.csv)
      // A file's own problems are reported first; a good file the plan cannot take is refused before its preview,
      // so it never looks ready to import.
      if (parsed.issues.length === 0) await assertBookCapacity(ctx.db, ctx.organization.id, parsed.books.length)
      const issues: ImportIssue[] = [...parsed.issues]
      const lineOf = new Map(
        parsed.books.flatMap(({ line, book }) => (book.isbn ? [[toIsbn13(book.isbn), line] as const] : [])),
      )
      for (const clash of await booksWithIsbn13(ctx.db, ctx.organization.id, [...lineOf.keys()])) {
        issues.push({ line: lineOf.get(clash.isbn13 ?? '') ?? 0, column: 'isbn', message: 'validation_isbn_taken' })
      }
      issues.sort((a, b) => a.line - b.line)
      const report = {
        rowCount: parsed.rowCount,
        preview: parsed.books.slice(0, 10).map(({ line, book }) => ({ line, ...book })),
        ...firstIssues(issues),
      }
      if (input.dryRun) return { ...report, imported: 0, importId: null }
      if (issues.length > 0) {
        throw new AppError({
          code: 'BAD_REQUEST',
          appCode: 'IMPORT_HAS_ERRORS',
          message: 'The file has problems; nothing was imported',
        })
      }
      if (parsed.books.length > queuedImportRows) {
        // A large file is written by a job, in chunks, with its progress on the Books page (book-import-job.ts).
        const importId = newBookId()
        await ctx.db.insert(bookImports).values({
          id: importId,
          organizationId: ctx.organization.id,
          createdById: ctx.user.id,
          csv: input.csv,
          rowCount: parsed.books.length,
        })
        if (await enqueue(bookImportJob, { importId })) return { ...report, imported: 0, importId }
        // No queue in this process (a command-line task, a test): the same work, before answering.
        await runBookImport(ctx.db, importId)
        const [done] = await ctx.db.select().from(bookImports).where(eq(bookImports.id, importId))
        return { ...report, imported: done?.imported ?? 0, importId }
      }
      const now = new Date()
      const rows = parsed.books.map(({ book }) => ({
        id: newBookId(),
        organizationId: ctx.organization.id,
        createdById: ctx.user.id,
        createdAt: now,
        updatedAt: now,
        ...bookColumns(book),
      }))
      try {
        await ctx.db.transaction(async (tx) => {
          for (let start = 0; start < rows.length; start += 500) {
            await tx.insert(books).values(rows.slice(start, start + 500))
          }
        })
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError({
            code: 'CONFLICT',
            appCode: 'BOOK_ISBN_TAKEN',
            message: 'Another book now has this ISBN',
          })
        }
        throw error
      }
      // PGlite has no autovacuum to notice a large import: without fresh statistics the planner stops using the
      // list's indexes and sorts the whole catalogue for every page.
      if (rows.length >= 1000) await ctx.db.execute(sql`analyze books`)
      return { ...report, imported: rows.length, importId: null }
    }),

  /** The books the filters select, as CSV, in the list's order. */
  exportCsv: orgProcedure({ book: ['read'] })
    .input(bookFilters)
    .query(async ({ ctx, input }) => {
      const order = input.direction === 'asc' ? sql`asc` : sql`desc`
      const rows = await ctx.db
        .select()
        .from(books)
        .where(bookConditions(ctx.organization.id, input))
        .orderBy(sql`${books[input.sort]} ${order}`, sql`${books.id} ${order}`)
      return { filename: `books-${ctx.organization.slug}.csv`, csv: booksToCsv(rows), count: rows.length }
    }),
})
