import { max, sql } from 'drizzle-orm'
import { bigint, pgSchema, serial, text } from 'drizzle-orm/pg-core'
import { locales } from '#/paraglide/runtime'
import { getEnv } from '../../env'
import { startedAt } from '../../runtime'
import { adminProcedure, createRouter } from '../init'

// Drizzle's own bookkeeping table, read-only here (not part of the app schema, so no migration creates it twice).
const appliedMigrations = pgSchema('drizzle').table('__drizzle_migrations', {
  id: serial('id').primaryKey(),
  hash: text('hash').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }),
})

export const systemRouter = createRouter({
  /** A status report for app admins: what runs, since when, and which migrations are applied. */
  status: adminProcedure.query(async ({ ctx }) => {
    const env = getEnv()
    const [row] = await ctx.db
      .select({
        applied: sql<string>`count(*)`.mapWith((value: string | number) => BigInt(value)),
        latest: max(appliedMigrations.createdAt),
      })
      .from(appliedMigrations)
    return {
      serverTime: new Date(),
      startedAt,
      database: {
        engine: env.DATABASE_URL ? ('postgres' as const) : ('pglite' as const),
        appliedMigrations: row?.applied ?? 0n,
        latestMigrationAt: row?.latest ? new Date(Number(row.latest)) : null,
      },
      locales: new Set<string>(locales),
      services: new Map<string, boolean>([
        ['postgres', Boolean(env.DATABASE_URL)],
        ['redis', Boolean(env.REDIS_URL)],
      ]),
    }
  }),
})
