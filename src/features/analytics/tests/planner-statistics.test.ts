import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vacuumEmbeddedDatabase } from '#/server/db/client'
import { sqlRows } from '#/server/db/raw-sql'
import { runMaintenanceTasks } from '#/server/maintenance'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { analyticsEvents } from '../server/schema'

describe.each(engines)('planner statistics on %s', (engine) => {
  let database: FreshDatabase
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    // A month of traffic, none of it in the last five minutes.
    const hourAgo = Date.now() - 3_600_000
    const rows = Array.from({ length: 3000 }, (_, index) => ({
      occurredAt: new Date(hourAgo - index * 60_000),
      kind: 'pageview' as const,
      visitorId: `visitor-${index % 400}`,
      pageViewId: `view-${index}`,
      path: '/en/',
    }))
    for (let start = 0; start < rows.length; start += 500) {
      await db()
        .insert(analyticsEvents)
        .values(rows.slice(start, start + 500))
    }
  })
  afterAll(async () => {
    await database.dispose()
  })

  const knownRows = async () => {
    const [row] = await sqlRows<{ rows: number }>(
      db(),
      sql`select reltuples::int as rows from pg_class where relname = 'analytics_events'`,
    )
    return Number(row?.rows)
  }
  const liveVisitorsPlan = async () =>
    (
      await sqlRows<{ 'QUERY PLAN': string }>(
        db(),
        sql`explain select count(distinct visitor_id) from analytics_events where occurred_at > now() - make_interval(mins => 5)`,
      )
    )
      .map((row) => row['QUERY PLAN'])
      .join('\n')

  if (engine === 'pglite') {
    it('are gathered by the maintenance job, which vacuums too, so the live-visitor count reads the last minutes through their index', async () => {
      expect(await knownRows(), 'no autovacuum: nothing has looked at the table yet').toBeLessThan(1)
      expect(await liveVisitorsPlan()).toContain('Seq Scan on analytics_events')
      await runMaintenanceTasks(db())
      expect(await knownRows()).toBe(3000)
      expect(await liveVisitorsPlan()).toContain('analytics_events_occurred_at_idx')
      // Vacuumed too: its pages are marked settled, so a count can be answered from an index alone.
      const [settled] = await sqlRows<{ pages: number }>(
        db(),
        sql`select relallvisible as pages from pg_class where relname = 'analytics_events'`,
      )
      expect(Number(settled?.pages)).toBeGreaterThan(0)
    })
  } else {
    it("are left to PostgreSQL's autovacuum", async () => {
      expect(await vacuumEmbeddedDatabase(db())).toBe(false)
    })
  }
})
