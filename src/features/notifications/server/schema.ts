import { sql } from 'drizzle-orm'
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations } from '../../../server/db/organization-schema'
// Only read inside the lazy `references` callbacks, so the import cycle with schema.ts is harmless.
import { users } from '../../../server/db/schema'

// ── In-app notifications: the console's bell and the emails people chose (src/features/notifications) ──────────

export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The organization it is about, when it is about one (deleting it deletes these). */
    organizationId: text('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    /** What happened, a kind the core or an app declares (src/lib/notice-kinds.ts); translated when shown. */
    type: text('type').notNull(),
    /** The values the text names (organization, role, book title, …), all strings. */
    params: jsonb('params').$type<Record<string, string>>().notNull().default({}),
    /** Where it leads: a path inside the app without the language (`/console/books/…`), or null. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('notifications_user_idx').on(table.userId, table.createdAt),
    index('notifications_unread_idx').on(table.userId).where(sql`${table.readAt} is null`),
  ],
)

/** Per person: the language their emails are written in, and which notifications also come by email. */
export const notificationSettings = pgTable('notification_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  locale: text('locale').notNull().default('en'),
  /** The notification types that also send an email. */
  emailTypes: text('email_types').array().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
