import path from 'node:path'
import { type Env, getEnv } from '../env'
import { type DatabaseConnection, openDatabase } from './client'

let connection: DatabaseConnection | undefined

/** The process-wide database: PostgreSQL when DATABASE_URL is set, else embedded PGlite under DATA_DIR. */
export function getDatabaseConnection(): DatabaseConnection {
  if (!connection) {
    const env = getEnv()
    connection = env.DATABASE_URL
      ? openDatabase({ engine: 'postgres', url: env.DATABASE_URL })
      : openDatabase({ engine: 'pglite', dataDir: embeddedDataDir(env) })
  }
  return connection
}

/** The embedded database's folder inside DATA_DIR. */
export function embeddedDataDir(env: Env): string {
  return path.resolve(env.DATA_DIR, 'pglite')
}

export function getDb() {
  return getDatabaseConnection().db
}

/** Whether `db` is the process-wide database (without opening it). */
export function isAppDatabase(db: unknown): boolean {
  return connection !== undefined && connection.db === db
}
