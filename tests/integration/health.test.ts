import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkHealth } from '#/server/health'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

describe.each(coreEngines)('GET /api/health on %s', (engine) => {
  let database: FreshDatabase
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(() => database.dispose())

  it('is 200 {status:"ok"} after a real database round trip', async () => {
    const response = await checkHealth(database.connection.db)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('is 503 with a JSON reason once the database is closed', async () => {
    await database.connection.close()
    const response = await checkHealth(database.connection.db)
    expect(response.status).toBe(503)
    const body = (await response.json()) as { status: string; reason: string }
    expect(body.status).toBe('error')
    expect(body.reason).toMatch(/^database unreachable: /)
  })
})
