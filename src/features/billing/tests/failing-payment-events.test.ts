import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { billingEvents } from '#/server/db/schema'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'

interface FailingEvent {
  provider: string
  id: string
  type: string
  attempts: number
  lastError: string | null
}

describe.each(engines)('Console → System, payment events, on %s', (engine) => {
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
    await database.dispose()
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
