import { sql } from 'drizzle-orm'
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
// Relative paths: drizzle-kit loads the schema outside the project's path aliases. Only read inside the lazy
// `references` callbacks, so the import cycle with the core's schema.ts is harmless.
import { organizations } from '../../../server/db/organization-schema'
import { users } from '../../../server/db/schema'

// ── Books: the console's organization-scoped catalogue (the books app) ─────────────────────────────────────

export const books = pgTable(
  'books',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    authors: text('authors').array().notNull().default(sql`'{}'::text[]`),
    /** As entered, without spaces or hyphens (ISBN-10 or ISBN-13). */
    isbn: text('isbn'),
    /** The ISBN-13 form, so an edition's ISBN-10 and ISBN-13 count as one book. */
    isbn13: text('isbn13'),
    publishedYear: integer('published_year'),
    /** An ISO 639-1 code such as `en` or `zh`. */
    language: text('language'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    coverUrl: text('cover_url'),
    /** Markdown, rendered without raw HTML. */
    description: text('description').notNull().default(''),
    /** Lower-cased title, authors and ISBNs: what the list's search box matches, Chinese included. */
    searchText: text('search_text').notNull().default(''),
    createdById: text('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by a delete; the row can be restored until it is purged 30 days later. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('books_organization_isbn13_idx')
      .on(table.organizationId, table.isbn13)
      .where(sql`${table.deletedAt} is null and ${table.isbn13} is not null`),
    // The list's default order and its title order, over live books only (keyset pages read them in order).
    index('books_organization_created_idx')
      .on(table.organizationId, table.createdAt, table.id)
      .where(sql`${table.deletedAt} is null`),
    index('books_organization_title_idx')
      .on(table.organizationId, sql`natural_sort_key(${table.title})`, table.id)
      .where(sql`${table.deletedAt} is null`),
    // The purge looks only at deleted books.
    index('books_deleted_at_idx').on(table.deletedAt).where(sql`${table.deletedAt} is not null`),
    index('books_tags_idx').using('gin', table.tags),
  ],
)

/**
 * The books an organization added per quarter hour, and how many of them are deleted since: the Dashboard's chart
 * reads these few rows instead of grouping every book by day on each visit (issue 55). Kept by triggers on `books`
 * (drizzle/0033_book_additions.sql), in the same transaction as each insert, delete, restore and purge, whichever
 * code wrote it. A quarter hour because every time zone's offset today is a whole number of quarter hours, so a slot
 * falls on one day in the Dashboard's zone, whichever it is.
 */
export const bookAdditions = pgTable(
  'book_additions',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The start of the quarter hour (UTC) the books were created in. */
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    added: integer('added').notNull().default(0),
    /** Of those added, how many are deleted now (and not yet purged). */
    deleted: integer('deleted').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.slot] })],
)

/**
 * A CSV import too large to run inside its request: a job (src/features/books/server/book-import-job.ts) writes it
 * in chunks, and `imported` moves forward in the same transaction as each chunk, so an import interrupted by a
 * restart resumes where it stopped without writing a row twice.
 */
export const bookImports = pgTable(
  'book_imports',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdById: text('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** The file as uploaded (checked already); parsed again by the job, which gives the same rows in the same order. */
    csv: text('csv').notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    rowCount: integer('row_count').notNull(),
    imported: integer('imported').notNull().default(0),
    /** A translation key (or an error code) saying why it stopped. */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [index('book_imports_organization_idx').on(table.organizationId, table.createdAt)],
)
