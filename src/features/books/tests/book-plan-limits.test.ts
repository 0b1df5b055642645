import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { translateAppError } from '#/lib/errors'
import { overwriteGetLocale } from '#/paraglide/runtime'
import { serverApps } from '#/server/apps.gen'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import '../book-messages'
import { addBook } from '../server/book-queries'
import { books } from '../server/schema'
import { book } from './book-fixtures'

/** Whether an installed app sells plans (billing): without one every organization has the largest plan. */
const sellsPlans = serverApps.some((app) => app.organizationPlan)

interface Overview {
  limits: Record<string, { used: number; limit: number | null } | undefined>
}

describe.each(engines)('the plans’ books limit on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let olga: Person
  let max: Person
  let orgId: string
  const db = () => database.connection.db
  const liveBooks = async () => (await db().select().from(books).where(eq(books.organizationId, orgId))).length

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Books')
    max = await h.signUp('Max Books')
    orgId = (await h.activeOrganizationOf(olga)) ?? ''
    await h.join(orgId, olga, max, 'member')
  })
  afterAll(() => database?.dispose())

  // One test per engine whichever way the kit is cut: a skipped test fails `npm test`.
  it(
    sellsPlans
      ? 'keeps a Free organization to 50 books, by hand or by import, shows the limit, and lifts it on a paid plan'
      : 'adds books past the 50 Free allows when no app sells plans: every organization has the largest plan',
    async () => {
      for (let index = 0; index < 50; index++)
        await addBook(db(), { id: orgId, ownerId: olga.id, title: `Seeded ${index}` })
      if (!sellsPlans) {
        const created = await h.trpc('mutation', 'books.create', max.cookie, book('The 51st'))
        expect(created.error).toBeUndefined()
        const overview = await h.trpc<Overview>('query', 'organizations.planLimits', max.cookie)
        expect(overview.data?.limits.books).toEqual({ used: 51, limit: null })
        expect(overview.data?.limits.members?.limit, 'nor are its members').toBeNull()
        return
      }
      const refused = await h.trpc('mutation', 'books.create', max.cookie, book('One too many'))
      expect(refused.status).toBe(403)
      expect(refused.error?.appCode).toBe('PLAN_LIMIT_BOOKS')
      const imported = await h.trpc('mutation', 'books.import', olga.cookie, {
        csv: 'title\nFirst\nSecond',
        dryRun: false,
      })
      expect(imported.error?.appCode).toBe('PLAN_LIMIT_BOOKS')
      expect(await liveBooks(), 'nothing was added').toBe(50)
      overwriteGetLocale(() => 'en')
      expect(translateAppError('PLAN_LIMIT_BOOKS', { limit: '50' })).toContain('50')

      const shown = await h.trpc<Overview>('query', 'organizations.planLimits', max.cookie)
      expect(shown.data?.limits.books, 'every member sees the limit beside the core’s').toEqual({ used: 50, limit: 50 })
      expect(shown.data?.limits.members?.limit).toBe(3)

      await h.givePlan(orgId, 'team', 5)
      const created = await h.trpc('mutation', 'books.create', max.cookie, book('Now allowed'))
      expect(created.error).toBeUndefined()
      expect(await liveBooks()).toBe(51)
      const lifted = await h.trpc<Overview>('query', 'organizations.planLimits', max.cookie)
      expect(lifted.data?.limits.books, 'a paid plan lifts it').toEqual({ used: 51, limit: null })
    },
  )
})
