import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverApps } from '#/server/apps.gen'
import { organizations } from '#/server/db/schema'
import { updateSiteSettings } from '#/server/settings'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
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

  it('shows them only to those who see the organization’s numbers, and refuses a bad range as a field error', async () => {
    expect((await added(max, march)).status).toBe(403)
    const inverted = await added(olga, { from: '2026-03-03', to: '2026-03-01' })
    expect(inverted.status).toBe(400)
  })
})
