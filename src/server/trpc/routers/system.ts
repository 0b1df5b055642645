import { sql } from 'drizzle-orm'
import { locales } from '#/paraglide/runtime'
import { getEnv } from '../../env'
import { startedAt } from '../../runtime'
import { createRouter, publicProcedure } from '../init'

export const systemRouter = createRouter({
  /** A status report for monitoring pages: what runs, since when, and which migrations are applied. */
  status: publicProcedure.query(async ({ ctx }) => {
    const env = getEnv()
    const result = await ctx.db.execute<{ applied: string; latest: string | null }>(
      sql`select count(*)::text as applied, max(created_at)::text as latest from drizzle.__drizzle_migrations`,
    )
    const row = result.rows[0]
    return {
      serverTime: new Date(),
      startedAt,
      database: {
        engine: env.DATABASE_URL ? ('postgres' as const) : ('pglite' as const),
        appliedMigrations: BigInt(row?.applied ?? '0'),
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
