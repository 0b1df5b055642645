import { randomUUID } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverApps } from '#/server/apps.gen'
import { type DatabaseConnection, openDatabase } from '#/server/db/client'
import { sqlRows } from '#/server/db/raw-sql'
import { organizations } from '#/server/db/schema'
import { updateSiteSettings } from '#/server/settings'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { createThrowawayPostgresDatabase } from '../../../../tests/support/postgres-database'
import { bookWithTitle } from '../schemas'
import { liveBookCount } from '../server/book-limits'
import { purgeDeletedBooks } from '../server/book-purge'
import { books } from '../server/schema'

interface BooksAdded {
  range: { from: string; to: string; granularity: string; timeZone: string }
  total: number
  deletedSince: number
  series: { start: string; count: number }[]
}

// Days are cut in the dashboard's time zone: Shanghai is UTC+8, so 16:00 UTC is already the next day there.
const timeZone = 'Asia/Shanghai'
const march = { from: '2026-03-01', to: '2026-03-03' }

describe.each(engines)('the Dashboard’s books on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let olga: Person
  let max: Person
  let orgId: string
  const db = () => database.connection.db
  const added = (person: Person, input: unknown) => h.trpc<BooksAdded>('query', 'books.added', person.cookie, input)
  const book = (organizationId: string, title: string, createdAt: string, deletedAt?: string) => ({
    id: randomUUID(),
    organizationId,
    title,
    createdAt: new Date(createdAt),
    updatedAt: new Date(createdAt),
    deletedAt: deletedAt ? new Date(deletedAt) : null,
  })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Owner')
    max = await h.signUp('Max Member')
    orgId = (await h.activeOrganizationOf(olga)) ?? ''
    await h.join(orgId, olga, max, 'member')
    await updateSiteSettings(db(), { analyticsTimeZone: timeZone })
  })
  afterAll(() => database?.dispose())

  it('gives owners the books added per day in the Dashboard’s time zone, and the books among the plan’s usage', async () => {
    await db()
      .insert(books)
      .values([
        book(orgId, 'Morning', '2026-03-01T02:00:00Z'),
        book(orgId, 'Midnight', '2026-03-01T16:30:00Z'), // March 2 in Shanghai
        book(orgId, 'Deleted since', '2026-03-03T01:00:00Z', '2026-03-10T00:00:00Z'),
        book(orgId, 'Too early', '2026-02-28T15:00:00Z'),
      ])
    // Someone else's organization's books never count.
    const elsewhere = randomUUID()
    await db()
      .insert(organizations)
      .values({ id: elsewhere, name: 'Elsewhere', slug: `elsewhere-${elsewhere.slice(0, 8)}` })
    await db()
      .insert(books)
      .values(book(elsewhere, 'Not ours', '2026-03-01T02:00:00Z'))

    const answer = await added(olga, march)
    expect(answer.error).toBeUndefined()
    expect(answer.data).toEqual({
      range: { ...march, granularity: 'day', timeZone },
      total: 3,
      // Said beside the total, so that 3 added agrees with the 3 live books ('Too early' was added before the range).
      deletedSince: 1,
      series: [
        { start: '2026-03-01', count: 1 },
        { start: '2026-03-02', count: 1 },
        { start: '2026-03-03', count: 1 },
      ],
    })
    const weekly = await added(olga, { ...march, granularity: 'week' })
    // March 1, 2026 is a Sunday: it ends one ISO week; the next starts on Monday, March 2.
    expect(weekly.data?.series).toEqual([
      { start: '2026-03-01', count: 1 },
      { start: '2026-03-02', count: 2 },
    ])
    const numbers = await h.trpc<{ appUsage: Record<string, unknown> }>(
      'query',
      'dashboard.organization',
      olga.cookie,
      march,
    )
    // Free allows 50 where an app sells plans (billing); otherwise every organization has the largest plan, without one.
    const sellsPlans = serverApps.some((app) => app.organizationPlan)
    expect(numbers.data?.appUsage.books).toEqual({ used: 3, limit: sellsPlans ? 50 : null })
  })

  it('follows a delete, a restore and a purge, and cuts days where the zone’s offset has quarter hours', async () => {
    const mutate = (procedure: string, input: unknown) => h.trpc('mutation', procedure, olga.cookie, input)
    const [morning] = await db().select({ id: books.id }).from(books).where(eq(books.title, 'Morning'))
    const id = morning?.id ?? ''
    expect((await mutate('books.delete', { ids: [id] })).status).toBe(200)
    expect((await added(olga, march)).data).toMatchObject({ total: 3, deletedSince: 2 })
    expect((await mutate('books.restore', { ids: [id] })).status).toBe(200)
    expect((await added(olga, march)).data).toMatchObject({ total: 3, deletedSince: 1 })
    // An edit changes neither the day nor the count.
    expect((await mutate('books.update', { id, book: bookWithTitle('Morning, revised') })).status).toBe(200)
    expect((await added(olga, march)).data).toMatchObject({ total: 3, deletedSince: 1 })
    // 'Deleted since' was deleted on March 10: purged thirty days later, it is no longer among the books added.
    expect(await purgeDeletedBooks(db(), new Date('2026-04-10T00:00:00Z'))).toBe(1)
    expect((await added(olga, march)).data).toMatchObject({
      total: 2,
      deletedSince: 0,
      series: [
        { start: '2026-03-01', count: 1 },
        { start: '2026-03-02', count: 1 },
        { start: '2026-03-03', count: 0 },
      ],
    })

    // Kathmandu is UTC+5:45: 18:14 UTC is 23:59 there, 18:15 UTC already the next day.
    await db()
      .insert(books)
      .values([
        book(orgId, 'Before midnight', '2026-03-02T18:14:59Z'),
        book(orgId, 'At midnight', '2026-03-02T18:15:00Z'),
      ])
    await updateSiteSettings(db(), { analyticsTimeZone: 'Asia/Kathmandu' })
    try {
      const kathmandu = await added(olga, march)
      expect(kathmandu.data?.range.timeZone).toBe('Asia/Kathmandu')
      expect(kathmandu.data?.series).toEqual([
        { start: '2026-03-01', count: 2 }, // Morning (07:45 there), Midnight (22:15 there)
        { start: '2026-03-02', count: 1 }, // Before midnight (23:59:59)
        { start: '2026-03-03', count: 1 }, // At midnight
      ])
    } finally {
      await updateSiteSettings(db(), { analyticsTimeZone: timeZone })
    }
  })

  it('keeps the numbers per day equal to counting the books, whatever is written to them and in which zone', async () => {
    const organizationId = randomUUID()
    await db()
      .insert(organizations)
      .values({ id: organizationId, name: 'Property', slug: `property-${organizationId.slice(0, 8)}` })
    const start = Date.parse('2026-03-01T00:00:00Z')
    const minutes = fc.integer({ min: 0, max: 3 * 24 * 60 })
    const pick = fc.array(fc.nat(), { minLength: 1, maxLength: 4 })
    const operation = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        rows: fc.array(fc.tuple(minutes, fc.boolean()), { minLength: 1, maxLength: 6 }),
      }),
      fc.record({
        kind: fc.constantFrom('delete' as const, 'restore' as const, 'purge' as const, 'edit' as const),
        picks: pick,
      }),
      fc.record({ kind: fc.constant('move' as const), picks: pick, by: fc.integer({ min: -600, max: 600 }) }),
    )
    const zones = ['UTC', 'Asia/Kathmandu', 'America/St_Johns', 'Asia/Shanghai', 'Pacific/Chatham']
    const perDay = async (zone: string, from: 'books' | 'book_additions') => {
      const rows = await sqlRows<{ day: string }>(
        db(),
        from === 'books'
          ? sql`select to_char(created_at at time zone ${zone}, 'YYYY-MM-DD') as day, count(*)::int as added,
              count(deleted_at)::int as deleted from books where organization_id = ${organizationId} group by 1`
          : sql`select to_char(slot at time zone ${zone}, 'YYYY-MM-DD') as day, sum(added)::int as added,
              sum(deleted)::int as deleted from book_additions where organization_id = ${organizationId} group by 1
              having sum(added) <> 0 or sum(deleted) <> 0`,
      )
      return rows.toSorted((a, b) => a.day.localeCompare(b.day))
    }

    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...zones),
        async (operations, zone) => {
          await db().delete(books).where(eq(books.organizationId, organizationId))
          const ids: string[] = []
          const chosen = (picks: number[]) => [...new Set(picks.map((index) => ids[index % ids.length] ?? ''))]
          for (const step of operations) {
            if (step.kind === 'insert') {
              const rows = step.rows.map(([minute, deleted]) => {
                const at = new Date(start + minute * 60_000).toISOString()
                return book(organizationId, 'Property', at, deleted ? at : undefined)
              })
              ids.push(...rows.map((row) => row.id))
              await db().insert(books).values(rows)
            } else if (ids.length > 0) {
              const where = inArray(books.id, chosen(step.picks))
              if (step.kind === 'delete') await db().update(books).set({ deletedAt: new Date() }).where(where)
              else if (step.kind === 'restore') await db().update(books).set({ deletedAt: null }).where(where)
              else if (step.kind === 'purge') await db().delete(books).where(where)
              else if (step.kind === 'edit') await db().update(books).set({ title: 'Edited' }).where(where)
              else if ('by' in step) {
                await db()
                  .update(books)
                  .set({ createdAt: sql`${books.createdAt} + make_interval(mins => ${step.by})` })
                  .where(where)
              }
            }
          }
          expect(await perDay(zone, 'book_additions')).toEqual(await perDay(zone, 'books'))
          const [live] = await db()
            .select({ count: count() })
            .from(books)
            .where(and(eq(books.organizationId, organizationId), isNull(books.deletedAt)))
          expect(await liveBookCount(db(), organizationId)).toBe(live?.count)
        },
      ),
      { numRuns: 20 },
    )
    // An organization deleted with its books takes its numbers with it.
    await db()
      .insert(books)
      .values(book(organizationId, 'Last', '2026-03-01T00:00:00Z'))
    await db().delete(organizations).where(eq(organizations.id, organizationId))
    expect(await perDay('UTC', 'book_additions')).toEqual([])
  })

  it('counts the books written before the release that keeps these numbers', async () => {
    // The migrations up to the one before book_additions, as a deployment of the previous release had them.
    const folder = mkdtempSync(path.join(tmpdir(), 'hatch-migrations-'))
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-pglite-'))
    cpSync('drizzle', folder, { recursive: true })
    const journalFile = path.join(folder, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] }
    journal.entries = journal.entries.slice(
      0,
      journal.entries.findIndex((entry) => entry.tag === '0033_book_additions'),
    )
    writeFileSync(journalFile, JSON.stringify(journal))
    const postgres =
      engine === 'postgres'
        ? await createThrowawayPostgresDatabase(process.env.DATABASE_URL ?? '', 'hatch_test')
        : undefined
    const open = (migrationsFolder?: string): DatabaseConnection =>
      postgres
        ? openDatabase({ engine: 'postgres', url: postgres.url, migrationsFolder })
        : openDatabase({ engine: 'pglite', dataDir, migrationsFolder })
    try {
      const previous = open(folder)
      await previous.migrate()
      const organizationId = randomUUID()
      await previous.db
        .insert(organizations)
        .values({ id: organizationId, name: 'Before', slug: `before-${organizationId.slice(0, 8)}` })
      await previous.db
        .insert(books)
        .values([
          book(organizationId, 'One', '2026-03-01T02:00:00Z'),
          book(organizationId, 'Two', '2026-03-01T02:10:00Z', '2026-03-05T00:00:00Z'),
          book(organizationId, 'Three', '2026-03-02T09:00:00Z'),
        ])
      await previous.close()

      const current = open()
      await current.migrate()
      const numbers = await sqlRows<{ slot: Date; added: number; deleted: number }>(
        current.db,
        sql`select slot, added, deleted from book_additions where organization_id = ${organizationId} order by slot`,
      )
      expect(numbers.map((row) => ({ ...row, slot: new Date(row.slot).toISOString() }))).toEqual([
        { slot: '2026-03-01T02:00:00.000Z', added: 2, deleted: 1 },
        { slot: '2026-03-02T09:00:00.000Z', added: 1, deleted: 0 },
      ])
      await current.close()
    } finally {
      await postgres?.drop()
      rmSync(folder, { recursive: true, force: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('shows them only to those who see the organization’s numbers, and refuses a bad range as a field error', async () => {
    expect((await added(max, march)).status).toBe(403)
    const inverted = await added(olga, { from: '2026-03-03', to: '2026-03-01' })
    expect(inverted.status).toBe(400)
  })
})
