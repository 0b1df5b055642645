import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHeartbeat, stopHeartbeat } from '#/server/app-servers'
import { version } from '../../package.json'
import { organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

interface SystemStatus {
  version: { version: string; commit: string | null }
  startedAt: Date
  servers: { hostname: string; pid: number; version: string; thisOne: boolean }[]
}

describe.each(coreEngines)('Console → System on %s', (engine) => {
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
})
