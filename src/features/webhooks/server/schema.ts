import { sql } from 'drizzle-orm'
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations } from '../../../server/db/organization-schema'
// Only read inside the lazy `references` callbacks, so the import cycle with schema.ts is harmless.
import { users } from '../../../server/db/schema'

// ── Outgoing webhooks: an organization's endpoints and what was sent to them (src/features/webhooks) ────────────

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The event types it receives (book.created, …). */
    events: text('events').array().notNull().default(sql`'{}'::text[]`),
    /** The Standard Webhooks signing secret (`whsec_…`): shown once, kept to sign each delivery. */
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it was switched off: `failing` (by Hatch, after a day of failed deliveries) or `manual`. */
    disabledReason: text('disabled_reason'),
    /** When its deliveries started failing without a success since; cleared by a success. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    /** The language of the email that tells its organization it was switched off (its creator's). */
    locale: text('locale').notNull().default('en'),
    createdById: text('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('webhook_endpoints_organization_idx').on(table.organizationId, table.createdAt)],
)

/** One event for one endpoint: a Standard Webhooks message whose id stays the same across every attempt. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** The message id (`msg_…`), sent as `webhook-id` so a receiver can drop a message it already handled. */
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** The message body's `data`. */
    payload: jsonb('payload').notNull(),
    /** pending (waiting for an attempt or a retry), delivered, failed (given up), or skipped (endpoint off). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** An attempt in progress holds the delivery until then, so a retry and "send again" never send it twice at once. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When its first attempt started: the one-hour bound on holding later deliveries back is measured from it. */
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** The queue job that owns its retries (the one that made its first attempt, or took over after "send again"). */
    retriesJobId: text('retries_job_id'),
  },
  (table) => [
    index('webhook_deliveries_endpoint_idx').on(table.endpointId, table.createdAt),
    index('webhook_deliveries_pending_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
    // The order checks read only an endpoint's pending deliveries, not its month of delivered ones.
    index('webhook_deliveries_endpoint_pending_idx')
      .on(table.endpointId, table.createdAt)
      .where(sql`${table.status} = 'pending'`),
  ],
)

/** Each attempt of a delivery, as the console's delivery log shows it. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    /** delivered, or why not: refused-destination, redirect, status, timeout, network. */
    outcome: text('outcome').notNull(),
    /** The receiver's HTTP status, when it answered. */
    status: integer('status'),
    durationMs: integer('duration_ms').notNull(),
    /** The first 4 KB of the receiver's answer (2 KB for attempts logged before request details were kept). */
    responseExcerpt: text('response_excerpt').notNull().default(''),
    /** The URL this attempt was sent to (the endpoint's may change later). */
    requestUrl: text('request_url'),
    /** The headers sent: content type, user agent and the Standard Webhooks three (a signature, never the secret). */
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>(),
    /** The exact signed body: `webhook-signature` verifies over it and `webhook-id`.`webhook-timestamp`. */
    requestBody: text('request_body'),
    /** The headers the receiver answered with. */
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId, table.attemptedAt)],
)
