import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#/server/db/client'
import { analyticsDaily, analyticsEvents, siteSettingChanges } from '#/server/db/schema'
import { getSiteSettings, readSiteSettings } from '#/server/settings'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { testPorts } from '../../../../tests/support/ports'
import { startProductionServer } from '../../../../tests/support/production-server'
import { app } from '../app'
import { handleInsightsBeacon } from '../server/beacon-handler'

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
const beacon = (id: string) =>
  Object.assign(
    new Request('http://hatch.test/api/insights', {
      method: 'POST',
      body: JSON.stringify({ type: 'pageview', id, url: 'http://hatch.test/en/' }),
      headers: { 'content-type': 'text/plain', 'user-agent': firefox },
    }),
    { ip: '203.0.113.77' },
  )

describe.each(engines)('the analytics switch in Configuration on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let admin: Person
  let settings: Record<string, unknown>
  const db = () => database.connection.db
  const update = (change: Record<string, unknown>) =>
    h.trpc<{ changed: string[] }>('mutation', 'configuration.update', admin.cookie, { ...settings, ...change })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    admin = await h.signUp('Ada Admin')
    const { updatedAt: _, ...stored } = await readSiteSettings(db())
    settings = stored
  })
  afterAll(() => database.dispose())

  it('is on by default: pages load the script and beacons are counted', async () => {
    const publicSettings = await h.trpc<{ apps: { analytics: { enabled: boolean } } }>(
      'query',
      'settings.public',
      undefined,
    )
    expect(publicSettings.data?.apps.analytics.enabled).toBe(true)
    expect(app.pageScripts(await getSiteSettings(db()))).toEqual([{ src: '/api/insights.js', defer: true }])
    expect((await handleInsightsBeacon(beacon('settings-on-1'), db())).status).toBe(202)
  })

  it('switched off: recorded as the app’s setting, pages stop loading the script, beacons are not counted', async () => {
    const answer = await update({ apps: { analytics: { enabled: false } } })
    expect(answer.error).toBeUndefined()
    expect(answer.data?.changed).toEqual(['analytics.enabled'])
    const [change] = await db().select().from(siteSettingChanges)
    expect(change).toMatchObject({ setting: 'analytics.enabled', oldValue: 'true', newValue: 'false' })
    const publicSettings = await h.trpc<{ apps: { analytics: { enabled: boolean } } }>(
      'query',
      'settings.public',
      undefined,
    )
    expect(publicSettings.data?.apps.analytics.enabled).toBe(false)
    expect(app.pageScripts(await getSiteSettings(db())), 'no page loads the script').toEqual([])
    expect((await handleInsightsBeacon(beacon('settings-off-1'), db())).status, 'answered, not counted').toBe(204)
    settings = { ...settings, apps: { analytics: { enabled: false } } }
    expect((await update({})).data?.changed, 'the same values again change nothing').toEqual([])
  })

  it('refuses a value that is not a switch, changing nothing', async () => {
    const answer = await update({ apps: { analytics: { enabled: 'yes' } } })
    expect(answer.status).toBe(400)
    expect((await readSiteSettings(db())).apps.analytics.enabled).toBe(false)
    expect(await db().select().from(siteSettingChanges)).toHaveLength(1)
  })

  it('switched on again, counts again', async () => {
    expect((await update({ apps: { analytics: { enabled: true } } })).data?.changed).toEqual(['analytics.enabled'])
    expect((await handleInsightsBeacon(beacon('settings-on-2'), db())).status).toBe(202)
  })

  it('cuts the kept days again when an admin moves the Dashboard to another time zone', async () => {
    settings = { ...settings, apps: { analytics: { enabled: true } } }
    // 23:30 UTC three days ago: that day in UTC, the next one in Shanghai.
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10)
    await db()
      .insert(analyticsEvents)
      .values({
        occurredAt: new Date(`${day(3)}T23:30:00Z`),
        kind: 'pageview',
        visitorId: 'zoe',
        pageViewId: 'late-evening',
        path: '/en/',
        browser: 'Firefox',
      })
    const totalDays = async () =>
      (await db().select().from(analyticsDaily).where(eq(analyticsDaily.dimension, 'total')))
        .filter((row) => row.pageviews > 0 && row.day <= day(2))
        .map((row) => row.day)
        .sort()
    expect((await update({ analyticsTimeZone: 'UTC' })).error).toBeUndefined()
    expect((await update({ analyticsTimeZone: 'Asia/Shanghai' })).data?.changed).toEqual(['analyticsTimeZone'])
    expect(await totalDays(), 'rolled up in Shanghai as soon as the change is saved').toEqual([day(2)])
    expect((await update({ analyticsTimeZone: 'America/Los_Angeles' })).data?.changed).toEqual(['analyticsTimeZone'])
    expect(await totalDays(), 'and again in Los Angeles').toEqual([day(3)])
  })
})

describe('a production server stopping', () => {
  const port = testPorts.analyticsShutdown
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-analytics-shutdown-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('writes the analytics beacons still queued in memory before the database closes', async () => {
    const server = await startProductionServer(port, dataDir)
    try {
      // Beacons are answered at once and written a second later; the signal comes before that second is up.
      const answer = await fetch(`http://localhost:${port}/api/insights`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': firefox },
        body: JSON.stringify({ type: 'pageview', id: 'shutdown01', url: `http://localhost:${port}/en/` }),
      })
      expect(answer.status).toBe(202)
    } finally {
      server.process.kill('SIGTERM')
    }
    expect(await server.exited).toBe(0)
    const reopened = openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'pglite') })
    const events = await reopened.db.select({ pageViewId: analyticsEvents.pageViewId }).from(analyticsEvents)
    await reopened.close()
    expect(events).toEqual([{ pageViewId: 'shutdown01' }])
  }, 180_000)
})
