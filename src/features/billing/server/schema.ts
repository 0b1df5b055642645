import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
// Relative paths: drizzle-kit loads the schema outside the project's path aliases. Only read inside the lazy
// `references` callbacks, so the import cycle with the core's schema.ts is harmless.
import { organizations } from '../../../server/db/organization-schema'
import { users } from '../../../server/db/schema'

// ── Billing: the provider-neutral ledger (the billing app) ─────────────────────────────

/** An organization's subscription as its provider last described it (the ledger re-reads it on every event). */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    providerCustomerId: text('provider_customer_id'),
    planId: text('plan_id').notNull(),
    interval: text('interval').notNull(),
    seats: integer('seats').notNull().default(1),
    currency: text('currency').notNull(),
    /** What one period costs, in the currency's minor unit. */
    amount: integer('amount').notNull(),
    status: text('status').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('billing_subscriptions_provider_idx').on(table.provider, table.providerSubscriptionId),
    index('billing_subscriptions_organization_idx').on(table.organizationId, table.status),
    check(
      'billing_subscriptions_status',
      sql`${table.status} in ('incomplete', 'trialing', 'active', 'past_due', 'canceled')`,
    ),
  ],
)

/** One payment: a checkout (the first period) or a renewal invoice, moved only forward by the state machine. */
export const billingOrders = pgTable(
  'billing_orders',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdById: text('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    provider: text('provider').notNull(),
    kind: text('kind', { enum: ['checkout', 'renewal', 'change'] }).notNull(),
    providerCheckoutId: text('provider_checkout_id'),
    /** Where the buyer finishes an unfinished checkout, until `expiresAt`. */
    checkoutUrl: text('checkout_url'),
    /** When an unfinished checkout stops taking payment (the provider's own expiry, which Hatch sets). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    providerInvoiceId: text('provider_invoice_id'),
    providerPaymentId: text('provider_payment_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    planId: text('plan_id').notNull(),
    interval: text('interval').notNull(),
    seats: integer('seats').notNull().default(1),
    currency: text('currency').notNull(),
    amount: integer('amount').notNull(),
    amountRefunded: integer('amount_refunded').notNull().default(0),
    status: text('status').notNull().default('pending'),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    /** The provider's receipt or invoice page. */
    receiptUrl: text('receipt_url'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('billing_orders_organization_idx').on(table.organizationId, table.createdAt),
    uniqueIndex('billing_orders_checkout_idx')
      .on(table.provider, table.providerCheckoutId)
      .where(sql`${table.providerCheckoutId} is not null`),
    uniqueIndex('billing_orders_invoice_idx')
      .on(table.provider, table.providerInvoiceId)
      .where(sql`${table.providerInvoiceId} is not null`),
    index('billing_orders_payment_idx')
      .on(table.provider, table.providerPaymentId)
      .where(sql`${table.providerPaymentId} is not null`),
    check(
      'billing_orders_status',
      sql`${table.status} in ('pending', 'paid', 'failed', 'canceled', 'expired', 'partially_refunded', 'refunded')`,
    ),
    check('billing_orders_refund', sql`${table.amountRefunded} >= 0 and ${table.amountRefunded} <= ${table.amount}`),
  ],
)

/** Every provider event, stored once by its id before it is applied; `processedAt` is set in the applying transaction. */
export const billingEvents = pgTable(
  'billing_events',
  {
    provider: text('provider').notNull(),
    id: text('id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    providerCreatedAt: timestamp('provider_created_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.id] }),
    index('billing_events_unprocessed_idx').on(table.receivedAt).where(sql`${table.processedAt} is null`),
  ],
)

/**
 * The built-in `local` provider's own records (its checkouts and subscriptions), kept apart from the ledger as a
 * real provider keeps them on its side: the ledger only learns of them through signed events and re-reads.
 */
export const localPaymentObjects = pgTable(
  'local_payment_objects',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['checkout', 'subscription'] }).notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('local_payment_objects_kind_idx').on(table.kind, table.createdAt)],
)
