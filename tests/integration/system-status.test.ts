import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHeartbeat, stopHeartbeat } from '#/server/app-servers'
import { billingEvents } from '#/server/db/schema'
import { version } from '../../package.json'
import { organizationHarness, type Person } from './organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from './test-databases'

interface SystemStatus {
  version: { version: string; commit: string | null }
  startedAt: Date
  servers: { hostname: string; pid: number; version: string; thisOne: boolean }[]
}

interface FailingEvent {
  provider: string
  id: string
  type: string
  attempts: number
  lastError: string | null
}

describe.each(engines)('Console → System on %s', (engine) => {
  let database: FreshDatabase
  const db = () => database.connection.db
  /** The first person to sign up is the app admin. */
  let admin: Person

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    admin = await organizationHarness(db()).signUp('Sys Admin')
  })
  afterAll(async () => {
    await stopHeartbeat()
    await database.dispose()
  })

  it('lists the servers that reported in the last minute, with the version each runs', async () => {
    const h = organizationHarness(db())
    const status = async () => (await h.trpc<SystemStatus>('query', 'system.status', admin.cookie)).data

    expect((await status())?.servers, 'no server has started its heartbeat yet').toEqual([])
    await startHeartbeat(db(), new Date())
    const running = await status()
    expect(running?.version.version).toBe(version)
    expect(running?.servers).toEqual([expect.objectContaining({ pid: process.pid, thisOne: true })])
    expect(running?.servers[0]?.version).toContain(version)

    await stopHeartbeat()
    expect((await status())?.servers, 'a server that stopped is gone at once').toEqual([])
  })

  it('shows payment events that failed, and applies one again on request', async () => {
    const h = organizationHarness(db())
    const member = await h.signUp('Pay Member')
    await db()
      .insert(billingEvents)
      .values([
        {
          provider: 'local',
          id: 'evt_failing_1',
          type: 'checkout.completed',
          payload: { unreadable: true },
          providerCreatedAt: new Date(),
          attempts: 3,
          lastError: 'Plan not found',
        },
        {
          provider: 'local',
          id: 'evt_applied_1',
          type: 'checkout.completed',
          payload: {},
          providerCreatedAt: new Date(),
          attempts: 1,
          processedAt: new Date(),
        },
      ])
    const failing = await h.trpc<FailingEvent[]>('query', 'billing.failingEvents', admin.cookie)
    expect(failing.data).toEqual([
      expect.objectContaining({ id: 'evt_failing_1', attempts: 3, lastError: 'Plan not found' }),
    ])
    expect((await h.trpc('query', 'billing.failingEvents', member.cookie)).status, 'app admins only').toBe(403)

    const again = await h.trpc('mutation', 'billing.replayEvent', admin.cookie, { id: 'evt_failing_1' })
    expect(again).toMatchObject({ status: 409, error: { appCode: 'PAYMENT_EVENT_STILL_FAILING' } })
    const unknown = await h.trpc('mutation', 'billing.replayEvent', admin.cookie, { id: 'evt_never_sent' })
    expect(unknown).toMatchObject({ status: 404, error: { appCode: 'PAYMENT_EVENT_NOT_FOUND' } })
    expect((await h.trpc('mutation', 'billing.replayEvent', admin.cookie, { id: '' })).status).toBe(400)
    expect((await h.trpc('mutation', 'billing.replayEvent', member.cookie, { id: 'evt_failing_1' })).status).toBe(403)
  })
})
