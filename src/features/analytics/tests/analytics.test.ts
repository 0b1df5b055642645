import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { aggregateRawEvents, readDailyAggregates } from '#/features/analytics/server/aggregates'
import { handleInsightsBeacon } from '#/features/analytics/server/beacon-handler'
import { analyticsEventWriter } from '#/features/analytics/server/event-writer'
import { rollupLockKey, runAnalyticsRollup } from '#/features/analytics/server/rollup'
import { type DatabaseConnection, openDatabase } from '#/server/db/client'
import { sqlRows } from '#/server/db/raw-sql'
import {
  analyticsDaily,
  analyticsEvents,
  analyticsRolledDays,
  analyticsSalts,
  scheduledJobRuns,
} from '#/server/db/schema'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'
const safari =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15'
const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

/** A beacon as the script sends it, from `ip` with `userAgent`. */
function beacon(body: unknown, options: { ip?: string; userAgent?: string; headers?: Record<string, string> } = {}) {
  const request = new Request('http://hatch.test/api/insights', {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'text/plain', 'user-agent': options.userAgent ?? firefox, ...options.headers },
  })
  return Object.assign(request, { ip: options.ip ?? '203.0.113.9' })
}

const pageView = (id: string, url: string, extra: Record<string, unknown> = {}) => ({
  type: 'pageview',
  id,
  url: `http://hatch.test${url}`,
  ...extra,
})

describe.each(engines)('analytics on %s', (engine) => {
  let database: FreshDatabase
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(async () => {
    await database.dispose()
  })
  beforeEach(async () => {
    for (const table of [analyticsEvents, analyticsDaily, analyticsRolledDays, analyticsSalts, scheduledJobRuns]) {
      await db().delete(table)
    }
  })

  async function storedEvents() {
    await analyticsEventWriter(db()).flush()
    return db().select().from(analyticsEvents).orderBy(analyticsEvents.id)
  }

  describe('collecting', () => {
    it('stores a page view with what the dashboard shows, and neither the address nor the user agent', async () => {
      const answer = await handleInsightsBeacon(
        beacon(
          pageView('view000001', '/en/docs/billing?utm_source=newsletter&utm_campaign=launch&token=secret', {
            entry: true,
            referrer: 'https://www.news.example/story/1',
            language: 'zh-CN',
            screenWidth: 390,
          }),
        ),
        db(),
      )
      expect(answer.status).toBe(202)
      const [event] = await storedEvents()
      expect(event).toMatchObject({
        kind: 'pageview',
        path: '/en/docs/billing',
        referrerHost: 'news.example',
        utmSource: 'newsletter',
        utmCampaign: 'launch',
        language: 'zh-CN',
        screen: 'phone',
        browser: 'Firefox',
        os: 'Linux',
        device: 'desktop',
      })
      const everything = JSON.stringify(event)
      expect(everything).not.toContain('203.0.113.9')
      expect(everything).not.toContain('Gecko')
      expect(everything).not.toContain('secret')
    })

    it('counts one visitor for the same browser and address, two for two browsers', async () => {
      await handleInsightsBeacon(beacon(pageView('view000001', '/en/')), db())
      await handleInsightsBeacon(beacon(pageView('view000002', '/en/docs', { entry: false })), db())
      await handleInsightsBeacon(beacon(pageView('view000003', '/en/'), { userAgent: safari }), db())
      const events = await storedEvents()
      expect(events).toHaveLength(3)
      expect(events[0]?.visitorId).toBe(events[1]?.visitorId)
      expect(events[2]?.visitorId).not.toBe(events[0]?.visitorId)
    })

    it('records the time on a page when the visitor leaves it', async () => {
      await handleInsightsBeacon(beacon(pageView('view000001', '/en/')), db())
      const left = await handleInsightsBeacon(
        beacon({ type: 'leave', id: 'view000001', url: 'http://hatch.test/en/', durationMs: 42_000 }),
        db(),
      )
      expect(left.status).toBe(202)
      const events = await storedEvents()
      expect(events.map((event) => [event.kind, event.durationMs])).toEqual([
        ['pageview', null],
        ['leave', 42_000],
      ])
    })

    it("accepts the public URL's pages when a proxy in front rewrote the Host header", async () => {
      const publicHost = new URL(process.env.APP_URL ?? 'http://localhost:3000').host
      const request = Object.assign(
        new Request('http://10.0.0.5:3000/api/insights', {
          method: 'POST',
          body: JSON.stringify({ type: 'pageview', id: 'view000001', url: `http://${publicHost}/en/` }),
          headers: { 'user-agent': firefox },
        }),
        { ip: '203.0.113.9' },
      )
      expect((await handleInsightsBeacon(request, db())).status).toBe(202)
      expect((await storedEvents()).map((event) => event.path)).toEqual(['/en/'])
    })

    it('does not count bots, Do-Not-Track, Global Privacy Control or prefetches', async () => {
      const answers = await Promise.all([
        handleInsightsBeacon(beacon(pageView('view000001', '/en/'), { userAgent: googlebot }), db()),
        handleInsightsBeacon(beacon(pageView('view000002', '/en/'), { headers: { dnt: '1' } }), db()),
        handleInsightsBeacon(beacon(pageView('view000003', '/en/'), { headers: { 'sec-gpc': '1' } }), db()),
        handleInsightsBeacon(beacon(pageView('view000004', '/en/'), { headers: { 'sec-purpose': 'prefetch' } }), db()),
      ])
      expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204])
      expect(await storedEvents()).toEqual([])
    })

    it('answers junk with 400 and stores nothing', async () => {
      const junk = [
        'not json',
        JSON.stringify({ ...pageView('view000001', '/en/'), padding: 'x'.repeat(3000) }),
        pageView('view000001', '/en/', { extra: true }),
        pageView('bad', '/en/'),
        { ...pageView('view000001', '/en/'), url: 'https://elsewhere.example/en/' },
        pageView('view000001', `/${'a'.repeat(600)}`),
      ]
      for (const body of junk) {
        const answer = await handleInsightsBeacon(beacon(body), db())
        expect(answer.status, `junk ${String(body).slice(0, 40)} is refused`).toBe(400)
      }
      expect(await storedEvents()).toEqual([])
    })

    it('stores the good events of a batch when one event in it cannot be stored', async () => {
      const writer = analyticsEventWriter(db())
      const event = (index: number, path: string) => ({
        occurredAt: new Date(),
        kind: 'pageview' as const,
        visitorId: 'visitor-batch',
        pageViewId: `batch${String(index).padStart(5, '0')}`,
        path,
      })
      const dropped = writer.dropped
      // PostgreSQL refuses a NUL character in text: one such event among 40 good ones.
      for (let index = 0; index < 41; index++) writer.add(event(index, index === 17 ? '/en/\u0000bad' : `/en/${index}`))
      const stored = await storedEvents()
      expect(stored).toHaveLength(40)
      expect(stored.map((row) => row.path)).not.toContain('/en/\u0000bad')
      expect(writer.dropped - dropped, 'only the bad event is lost').toBe(1)
    })

    it('answers too many beacons from one address with 429, and stores only the ones it accepted', async () => {
      // Past 120 a minute from one address; 250 in a row go over it even if a new minute starts in between.
      const ip = engine === 'pglite' ? '198.51.100.77' : '198.51.100.78'
      const statuses: number[] = []
      for (let index = 0; index < 250; index++) {
        const id = `burst${String(index).padStart(5, '0')}`
        statuses.push((await handleInsightsBeacon(beacon(pageView(id, '/en/'), { ip }), db())).status)
      }
      expect(statuses).toContain(429)
      const accepted = statuses.filter((status) => status === 202).length
      expect(accepted).toBeGreaterThanOrEqual(120)
      expect(await storedEvents()).toHaveLength(accepted)
    })
  })

  describe('rolling up', () => {
    /** Raw events at exact instants (the beacon path always stamps "now"). */
    async function insertViews(views: { at: string; path: string; visitor: string; referrer?: string }[]) {
      await db()
        .insert(analyticsEvents)
        .values(
          views.map((view, index) => ({
            occurredAt: new Date(view.at),
            kind: 'pageview' as const,
            visitorId: view.visitor,
            pageViewId: `view${index}`,
            path: view.path,
            referrerHost: view.referrer ?? null,
            browser: 'Firefox',
          })),
        )
    }
    const views = [
      // 23:30 UTC on 1 March is 07:30 on 2 March in Shanghai and 15:30 on 1 March in Los Angeles.
      { at: '2026-03-01T23:30:00Z', path: '/en/', visitor: 'ann', referrer: 'news.example' },
      { at: '2026-03-02T00:30:00Z', path: '/en/docs', visitor: 'ann' },
      { at: '2026-03-02T09:00:00Z', path: '/en/', visitor: 'bob', referrer: '' },
      { at: '2026-03-02T09:05:00Z', path: '/en/', visitor: 'bob' },
    ]
    const totals = async (timeZone: string) =>
      (await readDailyAggregates(db(), { timeZone, fromDay: '2026-02-28', toDay: '2026-03-03', dimensions: ['total'] }))
        .map((row) => [row.day, row.visitors, row.pageviews])
        .sort()

    it('cuts days in the dashboard time zone, and the rollup matches the raw events it replaced', async () => {
      await insertViews(views)
      const now = new Date('2026-03-10T12:00:00Z')
      const beforeRollup = await totals('UTC')
      expect(beforeRollup).toEqual([
        ['2026-03-01', 1, 1],
        ['2026-03-02', 2, 3],
      ])
      const outcome = await runAnalyticsRollup(db(), { timeZone: 'UTC', now, force: true })
      expect(outcome.rolledDays).toEqual(['2026-03-01', '2026-03-02'])
      expect(await totals('UTC'), 'the same numbers, now from the daily aggregates').toEqual(beforeRollup)
      const daily = await db().select().from(analyticsDaily)
      expect(daily.find((row) => row.dimension === 'referrer' && row.value === 'news.example')).toMatchObject({
        day: '2026-03-01',
        visitors: 1,
      })

      // The operator moves the dashboard to Shanghai: the days with raw events are cut again.
      const again = await runAnalyticsRollup(db(), { timeZone: 'Asia/Shanghai', now, force: true })
      expect(again.rolledDays).toEqual(['2026-03-02'])
      expect(await totals('Asia/Shanghai')).toEqual([['2026-03-02', 2, 4]])
      const direct = await aggregateRawEvents(db(), {
        timeZone: 'Asia/Shanghai',
        fromDay: '2026-03-02',
        toDay: '2026-03-02',
        onlyUnrolled: false,
      })
      const stored = await db().select().from(analyticsDaily)
      expect(stored.map((row) => `${row.dimension}=${row.value}:${row.visitors}/${row.pageviews}`).sort()).toEqual(
        direct.map((row) => `${row.dimension}=${row.value}:${row.visitors}/${row.pageviews}`).sort(),
      )

      const losAngeles = await runAnalyticsRollup(db(), { timeZone: 'America/Los_Angeles', now, force: true })
      expect(losAngeles.rolledDays).toEqual(['2026-03-01', '2026-03-02'])
      // 15:30 and 16:30 on 1 March, then 01:00 and 01:05 on 2 March in Los Angeles.
      expect(await totals('America/Los_Angeles')).toEqual([
        ['2026-03-01', 1, 2],
        ['2026-03-02', 1, 2],
      ])
    })

    it('leaves today to the raw events until the day is over', async () => {
      await insertViews([{ at: '2026-03-02T09:00:00Z', path: '/en/', visitor: 'bob' }])
      const outcome = await runAnalyticsRollup(db(), {
        timeZone: 'UTC',
        now: new Date('2026-03-02T18:00:00Z'),
        force: true,
      })
      expect(outcome.rolledDays).toEqual([])
      expect(await totals('UTC')).toEqual([['2026-03-02', 1, 1]])
    })

    it("answers the Dashboard's open days from a snapshot a few seconds old, never counting a rolled-up day twice", async () => {
      await insertViews([{ at: '2026-03-02T09:00:00Z', path: '/en/', visitor: 'bob' }])
      const range = { timeZone: 'UTC', fromDay: '2026-03-01', toDay: '2026-03-02', dimensions: ['total'] as const }
      const read = async (maxStalenessMs?: number) =>
        (await readDailyAggregates(db(), { ...range, maxStalenessMs })).map((row) => [row.day, row.pageviews]).sort()
      expect(await read(60_000)).toEqual([['2026-03-02', 1]])
      await insertViews([
        { at: '2026-03-01T10:00:00Z', path: '/en/', visitor: 'ann' },
        { at: '2026-03-02T10:00:00Z', path: '/en/docs', visitor: 'cy' },
      ])
      expect(await read(60_000), 'within the minute: the snapshot, no scan').toEqual([['2026-03-02', 1]])
      expect(await read(), 'exact when asked without staleness').toEqual([
        ['2026-03-01', 1],
        ['2026-03-02', 2],
      ])
      await runAnalyticsRollup(db(), { timeZone: 'UTC', now: new Date('2026-03-02T18:00:00Z'), force: true })
      expect(await read(60_000), 'the rolled-up 1 March from the rollup, 2 March still from the snapshot').toEqual([
        ['2026-03-01', 1],
        ['2026-03-02', 1],
      ])
      // Once older than allowed, the old numbers are answered while one refresh runs; the next question has it.
      await new Promise((resolve) => setTimeout(resolve, 30))
      expect(await read(20)).toEqual([
        ['2026-03-01', 1],
        ['2026-03-02', 1],
      ])
      await vi.waitFor(async () =>
        expect(await read(60_000)).toEqual([
          ['2026-03-01', 1],
          ['2026-03-02', 2],
        ]),
      )
    })

    it('waits a few minutes after midnight before rolling up the day that ended (late beacons still count)', async () => {
      await insertViews([{ at: '2026-03-01T23:59:50Z', path: '/en/', visitor: 'late' }])
      const justAfter = await runAnalyticsRollup(db(), {
        timeZone: 'UTC',
        now: new Date('2026-03-02T00:05:00Z'),
        force: true,
      })
      expect(justAfter.rolledDays, 'five minutes after midnight the day stays open').toEqual([])
      await insertViews([{ at: '2026-03-01T23:59:59Z', path: '/en/docs', visitor: 'later' }])
      const after = await runAnalyticsRollup(db(), {
        timeZone: 'UTC',
        now: new Date('2026-03-02T00:11:00Z'),
        force: true,
      })
      expect(after.rolledDays).toEqual(['2026-03-01'])
      expect(await totals('UTC')).toEqual([['2026-03-01', 2, 2]])
    })

    it('deletes raw events after 30 days and past salts, and keeps the daily numbers', async () => {
      await insertViews([
        { at: '2026-01-05T10:00:00Z', path: '/en/', visitor: 'old' },
        { at: '2026-03-01T10:00:00Z', path: '/en/', visitor: 'recent' },
      ])
      await db()
        .insert(analyticsSalts)
        .values([
          { day: '2026-03-09', salt: 'yesterday' },
          { day: '2026-03-10', salt: 'today' },
        ])
      const outcome = await runAnalyticsRollup(db(), {
        timeZone: 'UTC',
        now: new Date('2026-03-10T12:00:00Z'),
        force: true,
      })
      expect(outcome).toMatchObject({ ran: true, deletedEvents: 1, deletedSalts: 1 })
      expect((await db().select().from(analyticsEvents)).map((event) => event.visitorId)).toEqual(['recent'])
      expect((await db().select().from(analyticsSalts)).map((salt) => salt.day)).toEqual(['2026-03-10'])
      const january = await readDailyAggregates(db(), {
        timeZone: 'UTC',
        fromDay: '2026-01-05',
        toDay: '2026-01-05',
        dimensions: ['total'],
      })
      expect(january.map((row) => row.pageviews)).toEqual([1])
    })

    it('runs once when two app servers start it together', async () => {
      await insertViews(views)
      // The other server: its own connection pool on PostgreSQL; on PGlite (one process only) the same database.
      const other: DatabaseConnection | undefined =
        engine === 'postgres' ? openDatabase({ engine: 'postgres', url: database.url ?? '' }) : undefined
      try {
        const now = new Date('2026-03-10T12:00:00Z')
        const outcomes = await Promise.all([
          runAnalyticsRollup(db(), { timeZone: 'UTC', now }),
          runAnalyticsRollup(other?.db ?? db(), { timeZone: 'UTC', now }),
        ])
        expect(outcomes.map((outcome) => outcome.ran).sort()).toEqual([false, true])
        const [{ pageviews } = { pageviews: 0 }] = await sqlRows<{ pageviews: number }>(
          db(),
          sql`select sum(pageviews)::int as pageviews from analytics_daily where dimension = 'total'`,
        )
        expect(pageviews, 'each view is counted once').toBe(4)
        const later = await runAnalyticsRollup(other?.db ?? db(), {
          timeZone: 'UTC',
          now: new Date(now.getTime() + 60_000),
        })
        expect(later.ran, 'a minute later it is not due yet').toBe(false)
        const nextRound = await runAnalyticsRollup(db(), { timeZone: 'UTC', now: new Date(now.getTime() + 300_000) })
        expect(nextRound.ran, 'five minutes later it is').toBe(true)
        if (other) {
          // While another server is in the middle of a run (it holds the lock), even a forced run stands aside.
          const holder = new pg.Client({ connectionString: database.url })
          await holder.connect()
          try {
            await holder.query('select pg_advisory_lock($1)', [rollupLockKey])
            const during = await runAnalyticsRollup(db(), {
              timeZone: 'UTC',
              now: new Date(now.getTime() + 900_000),
              force: true,
            })
            expect(during.ran, 'the lock is held elsewhere').toBe(false)
          } finally {
            await holder.end()
          }
        }
      } finally {
        await other?.close()
      }
    })
  })
})
