import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteSettings } from '#/server/db/schema'
import { getSiteSettings, updateSiteSettings } from '#/server/settings'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

describe.each(coreEngines)('site settings on %s', (engine) => {
  let database: FreshDatabase
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(() => database.dispose())

  it('start with the defaults', async () => {
    const settings = await getSiteSettings(database.connection.db)
    expect(settings).toMatchObject({ productName: 'Hatch', defaultTheme: 'system' })
    expect(settings.updatedAt).toBeInstanceOf(Date)
  })

  it('are served from the in-process cache, not read again on every call', async () => {
    const db = database.connection.db
    await getSiteSettings(db)
    // A change behind the app's back (another tool) is not seen while the cache is fresh.
    await db.update(siteSettings).set({ productName: 'Changed elsewhere' }).where(eq(siteSettings.id, 1))
    expect((await getSiteSettings(db)).productName).toBe('Hatch')
    await db.update(siteSettings).set({ productName: 'Hatch' }).where(eq(siteSettings.id, 1))
  })

  it('show a write at once: writing through the app invalidates the cache', async () => {
    const db = database.connection.db
    await getSiteSettings(db)
    await updateSiteSettings(db, { productName: 'Acme AI', defaultTheme: 'dark' })
    expect(await getSiteSettings(db)).toMatchObject({ productName: 'Acme AI', defaultTheme: 'dark' })
  })

  it('refuse an invalid change and leave everything as it was', async () => {
    const db = database.connection.db
    const before = await getSiteSettings(db)
    await expect(updateSiteSettings(db, { productName: '', sourceRepositoryUrl: 'javascript:x' })).rejects.toThrow()
    const [row] = await db.select().from(siteSettings)
    expect(row?.productName).toBe(before.productName)
    expect(row?.sourceRepositoryUrl).toBe(before.sourceRepositoryUrl)
  })

  it('recreate the row with defaults if someone deleted it', async () => {
    const db = database.connection.db
    await db.delete(siteSettings)
    await updateSiteSettings(db, { productName: 'Hatch' }) // clears the cache
    await db.delete(siteSettings)
    await updateSiteSettings(db, {})
    expect((await getSiteSettings(db)).productName).toBe('Hatch')
  })
})
