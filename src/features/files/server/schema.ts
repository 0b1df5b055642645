import { sql } from 'drizzle-orm'
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organizations } from '../../../server/db/organization-schema'
import { users } from '../../../server/db/schema'
// Relative paths: drizzle-kit loads the schema outside the project's path aliases. Only read inside the lazy
// `references` callbacks, so the import cycle with the core's schema.ts is harmless.
import { books } from '../../books/server/schema'

// ── Files an organization stores: book covers and attachments (the files app) ───────────────────────────────

/**
 * One stored file of an organization, counted against its plan's storage: a book's cover (its sizes) or an attachment.
 * Its objects live under `folder` in the file storage. A purged book leaves its rows without a book (`book_id` null):
 * the files' maintenance task deletes their objects and then the rows.
 */
export const organizationFiles = pgTable(
  'organization_files',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    bookId: text('book_id').references(() => books.id, { onDelete: 'set null' }),
    /** `cover` or `attachment`. */
    kind: text('kind').notNull(),
    /** The storage prefix holding its objects: `organizations/{organization}/books/{book}/{id}`. */
    folder: text('folder').notNull(),
    /** The name it was uploaded with (shown and used for downloads), already checked. */
    name: text('name').notNull(),
    /** The type its bytes were recognised as, never the type the upload declared. */
    contentType: text('content_type').notNull(),
    /** Bytes stored, all sizes together: what the storage quota counts. */
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    createdById: text('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('organization_files_organization_idx').on(table.organizationId),
    index('organization_files_book_idx').on(table.bookId, table.createdAt),
    uniqueIndex('organization_files_cover_idx').on(table.bookId).where(sql`${table.kind} = 'cover'`),
    index('organization_files_orphans_idx').on(table.id).where(sql`${table.bookId} is null`),
  ],
)
