import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { type DatabaseConnection, type DatabaseEngine, openDatabase } from '#/server/db/client'

export interface FreshDatabase {
  connection: DatabaseConnection
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
  const name = `hatch_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const connection = openDatabase({ engine: 'postgres', url: url.href })
  return {
    connection,
    dispose: async () => {
      await connection.close()
      const cleanup = new pg.Client({ connectionString: adminUrl })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    },
  }
}
