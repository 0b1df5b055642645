import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import * as schema from './schema'

export type Schema = typeof schema
export type Database = PgDatabase<PgQueryResultHKT, Schema>
export type DatabaseEngine = 'pglite' | 'postgres'

export interface DatabaseConnection {
  db: Database
  engine: DatabaseEngine
  /** Applies every pending migration from the migrations folder. */
  migrate(): Promise<void>
  close(): Promise<void>
}

export type DatabaseConfig =
  | { engine: 'postgres'; url: string; migrationsFolder?: string }
  | { engine: 'pglite'; dataDir: string; migrationsFolder?: string }

/** Where generated migrations live: the `drizzle/` folder at the project root (the working directory). */
const defaultMigrationsFolder = path.resolve('drizzle')

/** An arbitrary, fixed number naming Hatch's migration lock among PostgreSQL advisory locks. */
const migrationLockKey = 4_827_301_966

/** The embedded database's buffer pool; PostgreSQL servers keep their own setting. */
const embeddedSharedBuffers = '32MB'

export function openDatabase(config: DatabaseConfig): DatabaseConnection {
  const migrationsFolder = config.migrationsFolder ?? defaultMigrationsFolder
  if (config.engine === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 10,
      // Fail fast when the server is unreachable instead of hanging a request (and the health check).
      connectionTimeoutMillis: 5_000,
    })
    // An idle client that loses its connection must not crash the process; the next query reports the error.
    pool.on('error', (error) => console.error('[db] idle PostgreSQL client error:', error.message))
    const db = drizzleNodePg({ client: pool, schema }) as unknown as Database
    let closed = false
    return {
      db,
      engine: 'postgres',
      migrate: async () => {
        // Several app servers may start at once: one applies the migrations while the others wait, then find
        // nothing left to do (drizzle takes no lock itself).
        const lockHolder = await pool.connect()
        try {
          await lockHolder.query('select pg_advisory_lock($1)', [migrationLockKey])
          await migrateNodePg(drizzleNodePg({ client: pool, schema }), { migrationsFolder })
        } finally {
          await lockHolder.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined)
          lockHolder.release()
        }
      },
      close: async () => {
        if (closed) return
        closed = true
        await pool.end()
      },
    }
  }
  mkdirSync(config.dataDir, { recursive: true })
  const client = new PGlite(config.dataDir, {
    // PostgreSQL's default 128 MB buffer pool is allocated and set up inside the WebAssembly memory at every start:
    // a quarter of it keeps a starter's working set in memory, and starts 0.3 s sooner with ~120 MB less resident
    // (docs/decisions/017).
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${embeddedSharedBuffers}`],
  })
  const pgliteDb = drizzlePglite({ client, schema })
  return {
    db: pgliteDb as unknown as Database,
    engine: 'pglite',
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    close: async () => {
      if (!client.closed) await client.close()
    },
  }
}

/** A real round trip to the database; throws when it cannot answer. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`)
}
