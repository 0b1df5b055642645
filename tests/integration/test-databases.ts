import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { type DatabaseConnection, type DatabaseEngine, openDatabase } from '#/server/db/client'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'

export interface FreshDatabase {
  connection: DatabaseConnection
  /** PostgreSQL only: where a second connection (another app server) reaches the same database. */
  url?: string
  /** Closes the connection and deletes the database. */
  dispose(): Promise<void>
}

/** The engines to test: PGlite always, PostgreSQL too where DATABASE_URL points at a server. */
export const engines: DatabaseEngine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']

/**
 * The engines for the core's own integration tests. `npm test` runs these files twice: in the project, then in the
 * minimal kit, on PGlite (scripts/minimal-kit.ts). So the project's run, told by HATCH_CORE_PGLITE_IN_KIT (set by
 * scripts/test.ts), takes PostgreSQL only: each file meets each engine once, which saves minutes of CI. A plain
 * `vitest run` with DATABASE_URL still runs them on both. An app's tests, the fuzzers and the Redis tests keep
 * `engines`: they do not run in the kit.
 */
export const coreEngines: DatabaseEngine[] =
  process.env.DATABASE_URL && process.env.HATCH_CORE_PGLITE_IN_KIT === '1' ? ['postgres'] : engines

/**
 * A database of the given engine with every migration applied, its own for each test file; `migrate()` on it finds
 * nothing left to do. Setting up an embedded database and applying the migrations took 5-10 s per file, most of
 * the integration tests' time: each database is now a copy of one migrated template per set of migrations.
 */
export async function createFreshDatabase(engine: DatabaseEngine): Promise<FreshDatabase> {
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-pglite-'))
    cpSync(await pgliteTemplate(), dataDir, { recursive: true })
    const connection = openDatabase({ engine: 'pglite', dataDir })
    return {
      connection,
      dispose: async () => {
        await connection.close()
        rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) throw new Error('DATABASE_URL is needed for PostgreSQL tests')
  const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_test', await postgresTemplate(adminUrl))
  const connection = openDatabase({ engine: 'postgres', url: database.url })
  return {
    connection,
    url: database.url,
    dispose: async () => {
      await connection.close()
      await database.drop()
    },
  }
}

const migrationsFolder = path.resolve('drizzle')

/** Names the migrations and the engine that applied them, so a changed migration or PGlite gets a new template. */
function templateKey(): string {
  const hash = createHash('sha256')
  hash.update(readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json')))
  for (const name of readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    const file = path.join(migrationsFolder, name)
    if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(readFileSync(file))
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * A migrated embedded data folder, kept between runs. Test files run in parallel: each that finds none builds one
 * aside and moves it into place; the first move wins and the others drop theirs.
 */
async function pgliteTemplate(): Promise<string> {
  const template = path.join(tmpdir(), `hatch-pglite-template-${templateKey()}`)
  if (existsSync(template)) return template
  const building = mkdtempSync(path.join(tmpdir(), 'hatch-pglite-template-building-'))
  const connection = openDatabase({ engine: 'pglite', dataDir: building })
  try {
    await connection.migrate()
  } finally {
    await connection.close()
  }
  try {
    renameSync(building, template)
  } catch (error) {
    if (!existsSync(template)) throw error
    rmSync(building, { recursive: true, force: true })
  }
  return template
}

/** A migrated PostgreSQL database to copy (`create database … template`), kept between runs the same way. */
async function postgresTemplate(adminUrl: string): Promise<string> {
  const template = `hatch_template_${templateKey()}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [template])
    if (found.rowCount) return template
    const building = await createThrowawayPostgresDatabase(adminUrl, 'hatch_template_building')
    const connection = openDatabase({ engine: 'postgres', url: building.url })
    try {
      await connection.migrate()
    } finally {
      await connection.close()
    }
    try {
      await admin.query(`alter database ${new URL(building.url).pathname.slice(1)} rename to ${template}`)
    } catch (error) {
      await building.drop()
      const taken = await admin.query('select 1 from pg_database where datname = $1', [template])
      if (!taken.rowCount) throw error
    }
    return template
  } finally {
    await admin.end()
  }
}
