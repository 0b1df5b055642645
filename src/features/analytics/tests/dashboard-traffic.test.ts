import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyticsEvents } from '#/server/db/schema'
import { updateSiteSettings } from '#/server/settings'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { forgetOpenDaySnapshots } from '../server/aggregates'
import { runAnalyticsRollup } from '../server/rollup'

interface Point {
  start: string
  visitors: number
  pageviews: number
}
interface Totals {
  visitors: number
  pageviews: number
  avgTimeOnPageMs: number | null
}
interface BreakdownRow {
  value: string
  visitors: number
  pageviews: number
  avgTimeOnPageMs: number | null
}
interface TrafficNumbers {
  range: { from: string; to: string; granularity: string; timeZone: string }
  traffic: {
    previousRange: { from: string; to: string }
    series: Point[]
    previousSeries: Point[]
    totals: Totals
    previousTotals: Totals
  }
  breakdowns: Record<string, BreakdownRow[]>
  liveVisitors: number
  counting: boolean
}

// Days are cut in the Dashboard's time zone: Shanghai is UTC+8, so 16:00 UTC is already the next day there.
const timeZone = 'Asia/Shanghai'
const march = { from: '2026-03-01', to: '2026-03-03' }

describe.each(engines)("the Dashboard's traffic on %s", (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  /** Ada is the install's first account (an app admin); Olga owns an organization of her own. */
  let ada: Person
  let olga: Person
  const db = () => database.connection.db

  const askTraffic = (person: Person | undefined, input: unknown) =>
    h.trpc<TrafficNumbers>('query', 'analytics.traffic', person?.cookie, input)
  const siteData = async (input: unknown) => {
    const answer = await askTraffic(ada, input)
    expect(answer.error, 'the traffic answers the admin').toBeUndefined()
    return answer.data as TrafficNumbers
  }
  const pageView = (occurredAt: string, visitorId: string, path: string, extra: Record<string, unknown> = {}) => ({
    occurredAt: new Date(occurredAt),
    kind: 'pageview' as const,
    visitorId,
    pageViewId: randomUUID(),
    path,
    referrerHost: null,
    language: 'en-US',
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop' as const,
    screen: 'desktop' as const,
    ...extra,
  })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    ada = await h.signUp('Ada Admin')
    olga = await h.signUp('Olga Owner')
    await updateSiteSettings(db(), { analyticsTimeZone: timeZone })
    const leave = (occurredAt: string, visitorId: string, path: string, durationMs: number) => ({
      occurredAt: new Date(occurredAt),
      kind: 'leave' as const,
      visitorId,
      pageViewId: randomUUID(),
      path,
      durationMs,
    })
    await db()
      .insert(analyticsEvents)
      .values([
        // March 1 in Shanghai: one visitor, two pages, 30 seconds on the docs
        pageView('2026-03-01T02:00:00Z', 'v1', '/en', { referrerHost: 'news.example', utmCampaign: 'launch' }),
        pageView('2026-03-01T02:01:00Z', 'v1', '/en/docs'),
        leave('2026-03-01T02:01:30Z', 'v1', '/en/docs', 30_000),
        // March 2 in Shanghai (17:00 UTC the day before): a direct visit, and a returning visitor
        pageView('2026-03-01T17:00:00Z', 'v2', '/en', { referrerHost: '', language: 'zh-CN', device: 'mobile' }),
        pageView('2026-03-02T03:00:00Z', 'v1', '/en/pricing', { referrerHost: 'news.example' }),
        // The previous period (February 26 to 28)
        pageView('2026-02-27T03:00:00Z', 'p1', '/en', { referrerHost: 'search.example' }),
        // Before both periods
        pageView('2026-02-10T03:00:00Z', 'old', '/en'),
      ])
    // Written straight into the table: the Dashboard's few-seconds-old snapshot of open days would not have them.
    forgetOpenDaySnapshots(db())
  })

  afterAll(async () => {
    await database?.dispose()
  })

  it('is for app admins only, and refuses an impossible range as a field error', async () => {
    expect((await askTraffic(undefined, march)).status).toBe(401)
    const owner = await askTraffic(olga, march)
    expect(owner.status, 'an organization owner is not an app admin').toBe(403)
    expect(owner.error).toMatchObject({ code: 'FORBIDDEN', appCode: 'APP_ADMIN_ONLY' })
    const inverted = await askTraffic(ada, { from: '2026-03-10', to: '2026-03-01' })
    expect(inverted.status).toBe(400)
    expect(inverted.error?.fieldErrors?.to).toEqual(['dashboard_range_inverted'])
  })

  it('says whether visits are being counted, as Configuration says', async () => {
    expect((await siteData(march)).counting).toBe(true)
    await updateSiteSettings(db(), { apps: { analytics: { enabled: false } } })
    expect((await siteData(march)).counting, 'the section says so beside its zeros').toBe(false)
    await updateSiteSettings(db(), { apps: { analytics: { enabled: true } } })
  })

  it('charts visitors and page views per day, with the previous period of equal length beside them', async () => {
    const { traffic, range } = await siteData(march)
    expect(range).toEqual({ ...march, granularity: 'day', timeZone })
    expect(traffic.previousRange).toEqual({ from: '2026-02-26', to: '2026-02-28' })
    expect(traffic.series).toEqual([
      { start: '2026-03-01', visitors: 1, pageviews: 2 },
      { start: '2026-03-02', visitors: 2, pageviews: 2 },
      { start: '2026-03-03', visitors: 0, pageviews: 0 },
    ])
    expect(traffic.previousSeries).toEqual([
      { start: '2026-02-26', visitors: 0, pageviews: 0 },
      { start: '2026-02-27', visitors: 1, pageviews: 1 },
      { start: '2026-02-28', visitors: 0, pageviews: 0 },
    ])
    expect(traffic.totals).toEqual({ visitors: 3, pageviews: 4, avgTimeOnPageMs: 30_000 })
    expect(traffic.previousTotals).toEqual({ visitors: 1, pageviews: 1, avgTimeOnPageMs: null })
  })

  it('groups days into ISO weeks and calendar months', async () => {
    const weekly = await siteData({ ...march, granularity: 'week' })
    expect(weekly.traffic.series).toEqual([
      { start: '2026-03-01', visitors: 1, pageviews: 2 },
      { start: '2026-03-02', visitors: 2, pageviews: 2 },
    ])
    expect(weekly.traffic.previousSeries, 'aligned bucket by bucket, three days earlier').toEqual([
      { start: '2026-02-26', visitors: 0, pageviews: 0 },
      { start: '2026-02-27', visitors: 1, pageviews: 1 },
    ])
    const monthly = await siteData({ from: '2026-02-20', to: '2026-03-03', granularity: 'month' })
    expect(monthly.traffic.series).toEqual([
      { start: '2026-02-20', visitors: 1, pageviews: 1 },
      { start: '2026-03-01', visitors: 3, pageviews: 4 },
    ])
  })

  it('lists the top pages, referrers (direct as empty), campaigns, languages and devices of the range', async () => {
    const { breakdowns } = await siteData(march)
    expect(breakdowns.page).toEqual([
      { value: '/en', visitors: 2, pageviews: 2, avgTimeOnPageMs: null },
      { value: '/en/docs', visitors: 1, pageviews: 1, avgTimeOnPageMs: 30_000 },
      { value: '/en/pricing', visitors: 1, pageviews: 1, avgTimeOnPageMs: null },
    ])
    expect(breakdowns.referrer?.map(({ value, visitors, pageviews }) => ({ value, visitors, pageviews }))).toEqual([
      { value: 'news.example', visitors: 2, pageviews: 2 },
      { value: '', visitors: 1, pageviews: 1 },
    ])
    expect(breakdowns.utm_campaign?.map((row) => [row.value, row.visitors])).toEqual([['launch', 1]])
    expect(breakdowns.language?.map((row) => [row.value, row.pageviews])).toEqual([
      ['en-US', 3],
      ['zh-CN', 1],
    ])
    expect(breakdowns.device?.map((row) => [row.value, row.visitors])).toEqual([
      ['desktop', 2],
      ['mobile', 1],
    ])
    expect(Object.keys(breakdowns).sort()).toEqual([
      'browser',
      'device',
      'language',
      'os',
      'page',
      'referrer',
      'screen',
      'utm_campaign',
      'utm_medium',
      'utm_source',
    ])
  })

  it('counts live visitors of the last five minutes', async () => {
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()
    await db()
      .insert(analyticsEvents)
      .values([
        pageView(minutesAgo(1), 'live-1', '/en'),
        pageView(minutesAgo(2), 'live-2', '/en/docs'),
        pageView(minutesAgo(3), 'live-1', '/en/pricing'),
        pageView(minutesAgo(12), 'gone', '/en'),
      ])
    expect((await siteData(march)).liveVisitors).toBe(2)
  })

  it('reads the same numbers once the days are rolled up and the raw events deleted', async () => {
    const before = await siteData(march)
    const outcome = await runAnalyticsRollup(db(), { timeZone, force: true })
    expect(outcome.rolledDays).toContain('2026-03-02')
    expect(outcome.deletedEvents, 'March is past retention').toBeGreaterThan(0)
    const after = await siteData(march)
    expect(after.traffic).toEqual(before.traffic)
    expect(after.breakdowns).toEqual(before.breakdowns)
  })

  it('shows a fresh range as zeros, every day present', async () => {
    const { traffic, breakdowns } = await siteData({ from: '2025-01-01', to: '2025-01-05' })
    expect(traffic.series.map((point) => [point.start, point.visitors])).toEqual([
      ['2025-01-01', 0],
      ['2025-01-02', 0],
      ['2025-01-03', 0],
      ['2025-01-04', 0],
      ['2025-01-05', 0],
    ])
    expect(traffic.totals).toEqual({ visitors: 0, pageviews: 0, avgTimeOnPageMs: null })
    expect(breakdowns.page).toEqual([])
  })
})
