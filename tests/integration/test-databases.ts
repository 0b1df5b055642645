import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
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

/** An empty database of the given engine, nothing applied yet; each test file gets its own. */
export async function createFreshDatabase(engine: DatabaseEngine): Promise<FreshDatabase> {
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-pglite-'))
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
  const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_test')
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
