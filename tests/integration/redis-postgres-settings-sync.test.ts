import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseConnection, openDatabase } from '#/server/db/client'
import { getSiteSettings, readSiteSettings } from '#/server/settings'
import { createSettingsSync, startSettingsSync, stopSettingsSync } from '#/server/settings-sync'
import { organizationHarness } from './organization-fixtures'
import { createFreshDatabase, type FreshDatabase } from './test-databases'

// Runs where both REDIS_URL and DATABASE_URL name servers (vitest.config.ts), as .ci/run's second leg does.
describe('two app servers sharing PostgreSQL and Redis', () => {
  let database: FreshDatabase
  let second: DatabaseConnection
  beforeAll(async () => {
    database = await createFreshDatabase('postgres')
    await database.connection.migrate()
  })
  afterAll(async () => {
    await second?.close()
    await database.dispose()
  })

  it('the other server sees a change within a second, not after its cache expires', async () => {
    const first = database.connection
    second = openDatabase({ engine: 'postgres', url: database.url ?? '' })
    // The first is this process's own server (the procedure announces through it); the second another server.
    await startSettingsSync(first.db, process.env.REDIS_URL)
    const syncSecond = await createSettingsSync(second.db, process.env.REDIS_URL ?? '')
    try {
      expect((await getSiteSettings(second.db)).productName).toBe('Hatch')
      const h = organizationHarness(first.db)
      const admin = await h.signUp('Ada Admin')
      const { updatedAt: _, ...settings } = await readSiteSettings(first.db)
      const answer = await h.trpc('mutation', 'configuration.update', admin.cookie, {
        ...settings,
        productName: 'Shared',
      })
      expect(answer.error, 'the admin changes the product name').toBeUndefined()
      const started = Date.now()
      while ((await getSiteSettings(second.db)).productName !== 'Shared' && Date.now() - started < 1000) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect((await getSiteSettings(second.db)).productName).toBe('Shared')
    } finally {
      await Promise.all([stopSettingsSync(), syncSecond.stop()])
    }
  })
})
