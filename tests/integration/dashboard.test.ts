import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tableToCsv } from '#/features/dashboard/csv-export'
import { dashboardRangeOf } from '#/features/dashboard/dashboard-queries'
import { recordAiTokens } from '#/server/ai/metering'
import { serverApps } from '#/server/apps.gen'
import { aiUsage, organizations, sessions, users } from '#/server/db/schema'
import { usageMonth } from '#/server/plan-limits'
import { updateSiteSettings } from '#/server/settings'
import { type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

interface SiteDashboard {
  range: { from: string; to: string; granularity: string; timeZone: string }
  product: {
    signUps: { total: number; series: { start: string; count: number }[] }
    activeUsers: { last7Days: number; last30Days: number }
    activeSessions: number
  }
}
interface OrganizationDashboard {
  organization: { id: string; name: string }
  members: number
  pendingInvitations: number
  plan: { planId: string; seats: number | null }
  usage: {
    members: { used: number; limit: number | null }
    aiRequests: { used: number; limit: number }
    aiTokens: { inputTokens: number; outputTokens: number }
  }
  appUsage: Record<string, { used: number; limit: number | null }>
}

// Days are cut in the dashboard's time zone: Shanghai is UTC+8, so 16:00 UTC is already the next day there.
const timeZone = 'Asia/Shanghai'
const march = { from: '2026-03-01', to: '2026-03-03' }

describe.each(coreEngines)('the console dashboard on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  /** Ada is the install's first account (an app admin); Olga owns an organization where Max is a member. */
  let ada: Person
  let olga: Person
  let max: Person
  let orgId: string
  const db = () => database.connection.db

  const site = (person: Person | undefined, input: unknown) =>
    h.trpc<SiteDashboard>('query', 'dashboard.site', person?.cookie, input)
  const organization = (person: Person | undefined, input: unknown) =>
    h.trpc<OrganizationDashboard>('query', 'dashboard.organization', person?.cookie, input)
  const siteData = async (input: unknown) => {
    const answer = await site(ada, input)
    expect(answer.error, 'the site dashboard answers the admin').toBeUndefined()
    return answer.data as SiteDashboard
  }

  const anotherOrganization = async (name: string) => {
    const id = randomUUID()
    await db()
      .insert(organizations)
      .values({ id, name, slug: `${name.toLowerCase()}-${id.slice(0, 8)}` })
    return id
  }
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    ada = await h.signUp('Ada Admin')
    olga = await h.signUp('Olga Owner')
    max = await h.signUp('Max Member')
    orgId = (await h.activeOrganizationOf(olga)) ?? ''
    await h.join(orgId, olga, max, 'member')
    await updateSiteSettings(db(), { analyticsTimeZone: timeZone })
  })

  afterAll(async () => {
    await database?.dispose()
  })

  it('shows the site-wide numbers to app admins only, and the organization numbers to its owners and admins', async () => {
    const signedOut = await site(undefined, march)
    expect(signedOut.status).toBe(401)
    const owner = await site(olga, march)
    expect(owner.status, 'an organization owner is not an app admin').toBe(403)
    expect(owner.error).toMatchObject({ code: 'FORBIDDEN', appCode: 'APP_ADMIN_ONLY' })

    const member = await organization(max, march)
    expect(member.status, 'a member may not read the organization dashboard').toBe(403)
    expect(member.error).toMatchObject({ code: 'FORBIDDEN', appCode: 'NOT_ALLOWED_TO_ACCESS_RESOURCE' })
    expect((await organization(olga, march)).status).toBe(200)
  })

  it('refuses an inverted, over-long or impossible range as a field error, never a server error', async () => {
    const inverted = await site(ada, { from: '2026-03-10', to: '2026-03-01' })
    expect(inverted.status).toBe(400)
    expect(inverted.error?.code).toBe('BAD_REQUEST')
    expect(inverted.error?.fieldErrors?.to).toEqual(['dashboard_range_inverted'])

    const tooLong = await organization(olga, { from: '2020-01-01', to: '2026-03-01' })
    expect(tooLong.status).toBe(400)
    expect(tooLong.error?.fieldErrors?.from).toEqual(['dashboard_range_too_long'])
    expect((await site(ada, { from: '2024-03-01', to: '2026-03-01' })).status, 'two years fit').toBe(200)

    const impossible = await site(ada, { from: '2026-02-30', to: '2026-03-01', granularity: 'fortnight' })
    expect(impossible.status).toBe(400)
    expect(impossible.error?.fieldErrors?.from).toEqual(['validation_date_invalid'])
    expect(impossible.error?.fieldErrors?.granularity).toBeDefined()
  })

  it('counts sign-ups per day in the dashboard time zone, and guests not at all', async () => {
    const account = (name: string, createdAt: string, isAnonymous = false) => ({
      id: randomUUID(),
      name,
      email: `${name.toLowerCase()}@example.com`,
      isAnonymous,
      createdAt: new Date(createdAt),
      updatedAt: new Date(createdAt),
    })
    const [late] = await db()
      .insert(users)
      .values([
        account('Early', '2026-03-01T10:00:00Z'), // 18:00 in Shanghai, March 1
        account('Late', '2026-03-01T17:30:00Z'), // 01:30 in Shanghai, already March 2
        account('Guest', '2026-03-02T05:00:00Z', true),
        account('Before', '2026-02-28T15:59:00Z'), // 23:59 on February 28 in Shanghai
      ])
      .returning()
    // Late last used the product 20 days ago and signed out then: active in the last 30 days, not the last 7. An
    // older session of Late's, last refreshed 40 days ago, has expired. (The three people signed up through Better
    // Auth above were marked active by their sign-in.)
    await db()
      .update(users)
      .set({ lastActiveAt: new Date(Date.now() - 20 * 86_400_000) })
      .where(eq(users.id, late?.id ?? ''))
    await db()
      .insert(sessions)
      .values({
        id: randomUUID(),
        token: randomUUID(),
        userId: late?.id ?? '',
        expiresAt: new Date(Date.now() - 33 * 86_400_000),
        updatedAt: new Date(Date.now() - 40 * 86_400_000),
      })

    const { product } = await siteData(march)
    expect(product.signUps.series).toEqual([
      { start: '2026-03-01', count: 1 },
      { start: '2026-03-02', count: 1 },
      { start: '2026-03-03', count: 0 },
    ])
    expect(product.signUps.total).toBe(2)
    expect(product.activeUsers).toEqual({ last7Days: 3, last30Days: 4 })
    expect(product.activeSessions, "the three people's live sessions").toBe(3)
  })

  it("gives owners their organization's members and usage against the plan", async () => {
    await db().insert(aiUsage).values({ organizationId: orgId, month: usageMonth(), requests: 42 })
    for (const usage of [
      { inputTokens: 1000, outputTokens: 300 },
      { inputTokens: 200, outputTokens: 40 },
    ]) {
      await recordAiTokens(db(), {
        organizationId: orgId,
        userId: olga.id,
        surface: 'assistant',
        model: 'test-model',
        usage,
        outcome: 'completed',
      })
    }
    await h.invite(olga, orgId, 'pending.person@example.com')
    // Someone else's organization's usage never counts.
    const elsewhere = await anotherOrganization('Elsewhere')
    await db().insert(aiUsage).values({ organizationId: elsewhere, month: usageMonth(), requests: 7 })

    const answer = await organization(olga, march)
    expect(answer.error).toBeUndefined()
    const numbers = answer.data as OrganizationDashboard
    expect(numbers.organization.id).toBe(orgId)
    expect(numbers.members).toBe(2)
    expect(numbers.pendingInvitations).toBe(1)
    // With an app that sells plans (billing) the organization is on Free; without one, on the largest plan, with no
    // limit on its members (src/server/plan-limits.ts).
    const sellsPlans = serverApps.some((app) => app.organizationPlan)
    expect(numbers.plan).toMatchObject(sellsPlans ? { planId: 'free', seats: 1 } : { planId: 'team', seats: null })
    expect(numbers.usage).toEqual({
      members: { used: 3, limit: sellsPlans ? 3 : null },
      aiRequests: { used: 42, limit: sellsPlans ? 1000 : 250_000 },
      aiTokens: { inputTokens: 1200, outputTokens: 340 },
    })
    // The installed apps' limits come by name, each with what the plan allows (their own tests check the amounts).
    for (const amounts of Object.values(numbers.appUsage)) expect(amounts.used).toBeGreaterThanOrEqual(0)
  })
})

describe("the dashboard's date range", () => {
  // 01:30 on November 24 in Shanghai is still November 23 in UTC.
  const now = new Date('2026-11-23T17:30:00Z')

  it('ends a preset today in the dashboard time zone, and starts 12 months at the first of a month', () => {
    expect(dashboardRangeOf({}, 'Asia/Shanghai', now)).toMatchObject({
      preset: '30d',
      from: '2026-10-26',
      to: '2026-11-24',
      granularity: 'day',
    })
    expect(dashboardRangeOf({}, 'UTC', now)).toMatchObject({ from: '2026-10-25', to: '2026-11-23' })
    expect(dashboardRangeOf({ range: '7d' }, 'UTC', now)).toMatchObject({ from: '2026-11-17', to: '2026-11-23' })
    expect(dashboardRangeOf({ range: '12m', granularity: 'month' }, 'UTC', now)).toMatchObject({
      from: '2025-12-01',
      to: '2026-11-23',
      granularity: 'month',
    })
  })

  it('keeps a custom range as asked, and names what is wrong with an impossible one', () => {
    const custom = { range: 'custom', from: '2026-11-01', to: '2026-11-10' } as const
    expect(dashboardRangeOf(custom, 'UTC', now)).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-10',
      problem: undefined,
    })
    expect(dashboardRangeOf({ ...custom, to: '2026-10-01' }, 'UTC', now).problem).toBe('dashboard_range_inverted')
    expect(dashboardRangeOf({ ...custom, from: '2020-01-01' }, 'UTC', now).problem).toBe('dashboard_range_too_long')
  })

  it('writes CSV a spreadsheet opens safely: UTF-8 marked, formulas from strangers escaped', () => {
    const csv = tableToCsv({ fields: ['页面', 'Visitors'], rows: [['=HYPERLINK("evil")', 3]] })
    expect(csv).toBe('\uFEFF页面,Visitors\r\n"\'=HYPERLINK(""evil"")",3\r\n')
  })
})
