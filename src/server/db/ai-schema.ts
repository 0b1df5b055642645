import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations } from './organization-schema'
// Only read inside the lazy `references` callbacks, so the import cycle with schema.ts is harmless.
import { users } from './schema'

// ── AI: the console assistant's conversations and every model request's tokens (src/features/assistant) ────────

/** One assistant conversation: its owner sees it only in the organization it was held in. */
export const aiConversations = pgTable(
  'ai_conversations',
  {
    /** Made by the browser (the chat's id) before the first answer; the server checks its shape and its owner. */
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('ai_conversations_owner_idx').on(table.userId, table.organizationId, table.updatedAt)],
)

/** A conversation's messages in the AI SDK's UI message shape (text, tool calls and their results), in order. */
export const aiMessages = pgTable(
  'ai_messages',
  {
    conversationId: text('conversation_id')
      .notNull()
      .references(() => aiConversations.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    id: text('id').notNull(),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    parts: jsonb('parts').$type<unknown[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.conversationId, table.position] })],
)

/**
 * One row per request to the model provider: who asked, from where, and the tokens the provider reported. The
 * plan's allowance counts requests (ai_usage); this is what they cost. Docs questions have no organization.
 */
export const aiRequests = pgTable(
  'ai_requests',
  {
    id: serial('id').primaryKey(),
    organizationId: text('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    surface: text('surface', { enum: ['assistant', 'docs'] }).notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    /** `completed`, or `stopped` when the person pressed Stop (tokens are what the provider reported by then). */
    outcome: text('outcome', { enum: ['completed', 'stopped'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('ai_requests_organization_idx').on(table.organizationId, table.createdAt),
    index('ai_requests_created_idx').on(table.createdAt),
  ],
)

/** AI requests counted per organization and calendar month (UTC), against the plan's allowance. */
export const aiUsage = pgTable(
  'ai_usage',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** `YYYY-MM` in UTC. */
    month: text('month').notNull(),
    requests: integer('requests').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.month] })],
)
