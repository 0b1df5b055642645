import { readFileSync } from 'node:fs'
import path from 'node:path'
import { getTableName, is, sql } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '#/server/db/schema'
import { siteSettings } from '#/server/db/schema'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

/** Rows of a raw query; the driver-neutral database type does not know their shape. */
async function rows<Row>(database: FreshDatabase, query: ReturnType<typeof sql>): Promise<Row[]> {
  const result = (await database.connection.db.execute(query)) as unknown as { rows: Row[] }
  return result.rows
}

const schemaTables = Object.values(schema)
  .filter((value) => is(value, PgTable))
  .map((table) => getTableName(table))
  .sort()

const journal = JSON.parse(readFileSync(path.resolve('drizzle/meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[]
}

describe.each(coreEngines)('migrations on an empty %s database', (engine) => {
  let database: FreshDatabase
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
  })
  afterAll(() => database.dispose())

  it('apply cleanly and record every migration in the journal', async () => {
    await database.connection.migrate()
    const applied = await rows<{ hash: string }>(database, sql`select hash from drizzle.__drizzle_migrations`)
    expect(applied).toHaveLength(journal.entries.length)
  })

  it('create the tables the app uses, with the default site settings row', async () => {
    const [row] = await database.connection.db.select().from(siteSettings)
    expect(row).toMatchObject({ id: 1, productName: 'Hatch', defaultTheme: 'system' })
    const tables = await rows<{ table_name: string }>(
      database,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )
    // The tables the schema declares, the core's and the installed apps' (src/server/db/app-schemas.gen.ts): no more
    // (a removed app's are dropped by the migration `npm run hatch -- remove` writes), no fewer.
    expect(tables.map((table) => table.table_name)).toEqual(schemaTables)
    expect(schemaTables).toEqual(expect.arrayContaining(['users', 'organizations', 'members', 'site_settings']))
  })

  it('do nothing when applied again', async () => {
    await database.connection.migrate()
    const applied = await rows<{ hash: string }>(database, sql`select hash from drizzle.__drizzle_migrations`)
    expect(applied).toHaveLength(journal.entries.length)
  })

  it('keep the one-row rule for site settings in the database itself', async () => {
    await expect(database.connection.db.insert(siteSettings).values({ id: 2 })).rejects.toThrow()
    await expect(
      database.connection.db.execute(sql`update site_settings set default_theme = 'sepia'`),
    ).rejects.toThrow()
  })
})
