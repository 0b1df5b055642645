import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { getEnv } from '../env'
import { log } from '../log'
import * as schema from './schema'

export type Schema = typeof schema
export type Database = PgDatabase<PgQueryResultHKT, Schema>
export type DatabaseEngine = 'pglite' | 'postgres'

export interface DatabaseConnection {
  db: Database
  engine: DatabaseEngine
  /** Applies every pending migration from the migrations folder. */
  migrate(): Promise<void>
  /**
   * How the job queue (pg-boss, src/server/jobs/queue.ts) reaches the same database: its own small pool on PostgreSQL;
   * the one embedded client on PGlite, which can have no second connection.
   */
  queueDatabase: QueueDatabase
  /** PostgreSQL's connection pool, for the metrics (src/server/metrics.ts); PGlite has one connection and no pool. */
  pool?: { totalCount: number; idleCount: number; waitingCount: number }
  /**
   * Reads with `read` in one snapshot of the whole database and writes a copy of that same state to `file` before the
   * snapshot ends, while the app goes on writing (src/server/backups): PGlite's copy of its data folder, gzipped, or
   * `pg_dump`'s custom format. What `read` counted is what the copy holds.
   */
  dumpInSnapshot<T>(file: string, read: (query: RawQuery) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** Rows of one SQL statement, for work below the schema (counting every table of a backup). */
export type RawQuery = (text: string) => Promise<Record<string, unknown>[]>

/** pg-boss's options for its database: a connection string, or a `db` that runs SQL text. */
export type QueueDatabase =
  | { connectionString: string }
  | {
      db: {
        executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
        listen?(
          channel: string,
          onNotification: (payload: string) => void,
          onReconnect: () => void,
        ): Promise<{ close(): Promise<void> }>
      }
    }

export type DatabaseConfig =
  | { engine: 'postgres'; url: string; migrationsFolder?: string }
  | { engine: 'pglite'; dataDir: string; migrationsFolder?: string }

/** Where generated migrations live: the `drizzle/` folder at the project root (the working directory). */
const defaultMigrationsFolder = path.resolve('drizzle')

/** An arbitrary, fixed number naming Hatch's migration lock among PostgreSQL advisory locks. */
const migrationLockKey = 4_827_301_966

/** How long opening a PostgreSQL connection may take before the database counts as unavailable. */
const postgresConnectTimeoutMs = 3_000
/**
 * How long a request may wait for a free connection of the pool. pg-pool applies its `connectionTimeoutMillis` to that
 * wait as well as to connecting, so a busy server (every connection working, others queued) answered 503 after 3 s
 * as if the database were away (found by the soak). The queue gets its own, longer bound; connecting keeps 3 s.
 */
const poolWaitTimeoutMs = 20_000

/** A pg client that gives up on connecting after `postgresConnectTimeoutMs`, whatever the pool waits for a slot. */
class PromptlyConnectingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({
      ...(typeof config === 'string' ? { connectionString: config } : config),
      connectionTimeoutMillis: postgresConnectTimeoutMs,
    })
    // The pool listens for errors only on the clients it holds idle. A connection that dies while checked out (in a
    // transaction between two statements, say) emitted 'error' to nobody, and Node ended the process: found when
    // PostgreSQL terminated the connections under load. Its queries fail by themselves and the pool drops the client
    // when it comes back.
    this.on('error', (error) => log().warn({ err: error }, 'a PostgreSQL connection in use failed'))
  }
}

/** The embedded database's buffer pool; PostgreSQL servers keep their own setting. */
const embeddedSharedBuffers = '32MB'

export function openDatabase(config: DatabaseConfig): DatabaseConnection {
  const migrationsFolder = config.migrationsFolder ?? defaultMigrationsFolder
  if (config.engine === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 10,
      // Fail fast when the server is unreachable instead of hanging a request (and the health check): a page or
      // call then answers 503 within the 5 s the app promises, connection included. Waiting behind busy connections
      // is not an outage and may take longer.
      Client: PromptlyConnectingClient,
      connectionTimeoutMillis: poolWaitTimeoutMs,
    })
    // An idle client that loses its connection must not crash the process; the next query reports the error.
    pool.on('error', (error) => log().error({ err: error }, 'an idle PostgreSQL connection failed'))
    const db = drizzleNodePg({ client: pool, schema }) as unknown as Database
    let closed = false
    return {
      db,
      engine: 'postgres',
      pool,
      queueDatabase: { connectionString: config.url },
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
      dumpInSnapshot: async (file, read) => {
        const client = await pool.connect()
        try {
          // pg_dump reads the very snapshot this transaction exported, which stays valid while the transaction is open.
          await client.query('begin isolation level repeatable read read only')
          const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]?.id
          if (!snapshot) throw new Error('PostgreSQL exported no snapshot')
          const result = await read(async (text) => (await client.query(text)).rows)
          await runPgDump(config.url, snapshot, file)
          await client.query('commit')
          return result
        } catch (error) {
          await client.query('rollback').catch(() => undefined)
          throw error
        } finally {
          client.release()
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
  embeddedDatabases.add(pgliteDb)
  return {
    db: pgliteDb as unknown as Database,
    engine: 'pglite',
    queueDatabase: {
      db: {
        // pg-boss sends parameterised statements one at a time and its transactions as one multi-statement text,
        // whose every statement's rows it reads (its claim and lock rows): `exec` answers one result per statement.
        executeSql: async (text, values) => {
          if (values && values.length > 0) return client.query(text, values)
          const results = await client.exec(text)
          // pg-boss reads an array as one result per statement (its unwrapSQLResult).
          return (results.length === 1 ? results[0] : results) as { rows: unknown[] }
        },
        // The runner's workers wake on a job's NOTIFY (src/server/jobs/queue.ts). The embedded database has one session
        // for its whole life, so the listener never reconnects: pg-boss's catch-up fetch runs once, after this subscribe.
        listen: async (channel, onNotification, onReconnect) => {
          const unlisten = await client.listen(channel, onNotification)
          onReconnect()
          return { close: () => unlisten() }
        },
      },
    },
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    dumpInSnapshot: async (file, read) => {
      // Written pages reach the folder now, so the copy needs little recovery when it is opened.
      await client.exec('checkpoint')
      // PGlite runs every other statement after an open transaction (one connection), so nothing writes between the
      // counting and the copy; the copy is taken between two of this transaction's statements. Requests wait meanwhile:
      // the folder is copied as it is, and compressed after the transaction, on Node's thread pool.
      const { result, folder } = await client.transaction(async (transaction) => ({
        result: await read(async (text) => (await transaction.query<Record<string, unknown>>(text)).rows),
        folder: await client.dumpDataDir('none'),
      }))
      await writeFile(file, await gzipAsync(new Uint8Array(await folder.arrayBuffer())))
      return result
    },
    close: async () => {
      if (!client.closed) await client.close()
    },
  }
}

const embeddedDatabases = new WeakSet<object>()

const gzipAsync = promisify(gzip)

/** `pg_dump` from PATH, or the one PG_DUMP names (a version at least the server's, e.g. /usr/lib/postgresql/17/bin). */
function postgresTool(name: 'pg_dump' | 'pg_restore'): string {
  const env = getEnv()
  return (name === 'pg_dump' ? env.PG_DUMP : env.PG_RESTORE) ?? name
}

/**
 * Runs a PostgreSQL client tool on the database at `url`; fails with what it printed, or with how to get it when it is
 * not installed. The password goes in the tool's environment (PGPASSWORD), not on its command line, where every user
 * of the machine could read it in the process list.
 */
export function runPostgresTool(name: 'pg_dump' | 'pg_restore', url: string, args: readonly string[]): Promise<void> {
  const address = new URL(url)
  const password = decodeURIComponent(address.password)
  address.password = ''
  return new Promise((resolve, reject) => {
    const child = spawn(postgresTool(name), [`--dbname=${address.href}`, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: password ? { ...process.env, PGPASSWORD: password } : process.env,
    })
    let printed = ''
    child.stderr.on('data', (chunk: Buffer) => {
      printed = `${printed}${chunk.toString()}`.slice(-4000)
    })
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${name} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), or set ${name === 'pg_dump' ? 'PG_DUMP' : 'PG_RESTORE'} to its path`,
            )
          : error,
      ),
    )
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} failed (exit ${code}): ${printed.trim()}`)),
    )
  })
}

function runPgDump(url: string, snapshot: string, file: string): Promise<void> {
  return runPostgresTool('pg_dump', url, ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`])
}

/**
 * Whether `db` is the embedded database. It has no autovacuum, so nothing vacuums it or gathers its planner statistics
 * unless we do (vacuumEmbeddedDatabase); PostgreSQL's own autovacuum does both.
 */
export function isEmbeddedDatabase(db: Database): boolean {
  return embeddedDatabases.has(db)
}

/**
 * Vacuums the embedded database and gathers its planner statistics (all tables, or the named ones), as autovacuum does
 * on PostgreSQL, where there is nothing to do. Without statistics PostgreSQL plans every query for tables of unknown
 * size: the analytics events of the last five minutes were read by scanning them all, and a page of 10,000 books took
 * twice as long. Without a vacuum every row read after a large import is checked against the transaction log and no
 * count is answered from an index alone: an organization's 10,000 books were counted in 14 ms, 4.5 ms after it, and
 * the Dashboard's books-per-day in 42 ms, 13 ms after it. A plain vacuum skips the pages it already found settled.
 */
export async function vacuumEmbeddedDatabase(db: Database, tables: readonly string[] = []): Promise<boolean> {
  if (!isEmbeddedDatabase(db)) return false
  const named = tables.map((table) => `"${table}"`).join(', ')
  await db.execute(sql.raw(`vacuum (analyze) ${named}`.trim()))
  return true
}

/** A real round trip to the database; throws when it cannot answer. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`)
}

/**
 * SQLSTATE classes and codes that say the database cannot serve right now, whatever the query: connection exceptions
 * (08xxx), shutdowns and restarts (57P01-57P03), too many connections, and the server out of disk or memory.
 */
const unavailableSqlStates = /^(08...|57P0[1-3]|53300|53200|58030)$/
/** Node's socket errors when PostgreSQL cannot be reached or drops the connection. */
const unreachableSocketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOSPC',
])
/** What pg and PGlite say, without a code, when a connection is gone or the client is closed. */
const unavailableMessages =
  /^(Connection terminated|timeout exceeded when trying to connect|timeout expired|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed|Client was closed|Connection ended)/i
/** The disk holding the data is full: a change cannot be kept until space returns. */
const storageFullSqlState = '53100'

export type DatabaseFault = 'unavailable' | 'storage-full'

/** The error and the errors it wraps (DrizzleQueryError, TRPCError and APIError keep theirs in `cause`). */
function* errorChain(error: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current)
    yield current as Record<string, unknown>
    if (current instanceof AggregateError) yield* current.errors.flatMap((inner) => [...errorChain(inner)])
    current = (current as { cause?: unknown }).cause
  }
}

/**
 * Whether an error means the database cannot serve at the moment (unreachable, restarting, closed, or its disk full)
 * rather than that this request was wrong: such a request is answered 503 with Retry-After, never a 500.
 */
export function databaseFaultOf(error: unknown): DatabaseFault | undefined {
  for (const link of errorChain(error)) {
    const code = typeof link.code === 'string' ? link.code : undefined
    const message = typeof link.message === 'string' ? link.message : ''
    if (code === storageFullSqlState || code === 'ENOSPC' || /No space left on device/i.test(message)) {
      return 'storage-full'
    }
    if (code && (unavailableSqlStates.test(code) || unreachableSocketCodes.has(code))) return 'unavailable'
    if (unavailableMessages.test(message)) return 'unavailable'
  }
  return undefined
}
