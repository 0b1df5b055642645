import { sql } from 'drizzle-orm'
import { boolean, check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** One row (id = 1) of settings an operator edits at run time; defaults live in the migration. */
export const siteSettings = pgTable(
  'site_settings',
  {
    id: integer('id').primaryKey().default(1),
    productName: text('product_name').notNull().default('Hatch'),
    sourceRepositoryUrl: text('source_repository_url').notNull().default('https://github.com/hatch-dev/hatch'),
    defaultTheme: text('default_theme', { enum: ['light', 'dark', 'system'] })
      .notNull()
      .default('light'),
    /** Previous/next cards under each docs page; off by default. */
    docsFooterNavigation: boolean('docs_footer_navigation').notNull().default(false),
    /** The branch "Edit on GitHub" links point at. */
    docsEditBranch: text('docs_edit_branch').notNull().default('main'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('site_settings_single_row', sql`${table.id} = 1`),
    check('site_settings_default_theme', sql`${table.defaultTheme} in ('light', 'dark', 'system')`),
  ],
)

/** Visitors who asked for product news from the landing page; one row per (lower-cased) address. */
export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  email: text('email').primaryKey(),
  locale: text('locale').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Fixed-window request counters shared by every app server (the database is the one thing they share). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
})
