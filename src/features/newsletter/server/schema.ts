import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'

// ── The newsletter: addresses from the site footer's form (src/features/newsletter) ─────────────────────────────

/** Visitors who asked for product news; one row per (lower-cased) address. */
export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  email: text('email').primaryKey(),
  locale: text('locale').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
