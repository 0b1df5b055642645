import { flushAnalytics } from './analytics/analytics-jobs'
import { startHeartbeat, stopHeartbeat } from './app-servers'
import { closeAuthResources } from './auth/auth'
import { resolveAuthSecret } from './auth-secret'
import { getDatabaseConnection } from './db/database'
import { getEnv } from './env'
import { startJobQueue, stopJobQueue } from './jobs/queue'
import { log } from './log'
// Defines the hourly maintenance job before the queue starts (the features register their tasks in it).
import './maintenance'
import { startMetrics } from './metrics'
import { getSiteSettings } from './settings'
import { startSettingsSync, stopSettingsSync } from './settings-sync'

export const startedAt = new Date()
let ready: Promise<void> | undefined

/**
 * Everything the server needs before it answers a request: a valid environment, an open database with every
 * migration applied, and warm settings. Runs once per process; the production server awaits it before listening.
 */
export function ensureServerReady(options: { jobs?: boolean } = {}): Promise<void> {
  ready ??= (async () => {
    const env = getEnv()
    const { source } = resolveAuthSecret({ configured: env.BETTER_AUTH_SECRET, dataDir: env.DATA_DIR })
    if (source === 'generated') {
      log().warn(`Generated an auth secret in ${env.DATA_DIR}/; set BETTER_AUTH_SECRET in production.`)
    }
    const connection = getDatabaseConnection()
    await connection.migrate()
    await getSiteSettings(connection.db)
    // A command-line task (scripts/project.ts) works on the database without taking jobs from the servers.
    if (options.jobs !== false) {
      await startJobQueue(connection)
      startMetrics(connection)
      await startHeartbeat(connection.db, startedAt)
    }
    await startSettingsSync(connection.db, env.REDIS_URL)
  })()
  // A failed start (bad variable, database down) is retried by the next request in development; the production
  // server exits instead.
  ready.catch(() => {
    ready = undefined
  })
  return ready
}

/** Closes Redis and the database; called once in-flight requests have finished during shutdown. */
export async function closeServerResources(): Promise<void> {
  await stopHeartbeat()
  await stopJobQueue()
  await flushAnalytics(getDatabaseConnection().db)
  await stopSettingsSync()
  await closeAuthResources()
  await getDatabaseConnection().close()
}
