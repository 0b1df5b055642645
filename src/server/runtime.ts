import { startAnalyticsJobs, stopAnalyticsJobs } from './analytics/analytics-jobs'
import { closeAuthResources } from './auth/auth'
import { resolveAuthSecret } from './auth-secret'
import { getDatabaseConnection } from './db/database'
import { getEnv } from './env'
import { startMaintenance, stopMaintenance } from './maintenance'
import { getSiteSettings } from './settings'
import { startSettingsSync, stopSettingsSync } from './settings-sync'

export const startedAt = new Date()
let ready: Promise<void> | undefined

/**
 * Everything the server needs before it answers a request: a valid environment, an open database with every
 * migration applied, and warm settings. Runs once per process; the production server awaits it before listening.
 */
export function ensureServerReady(): Promise<void> {
  ready ??= (async () => {
    const env = getEnv()
    const { source } = resolveAuthSecret({ configured: env.BETTER_AUTH_SECRET, dataDir: env.DATA_DIR })
    if (source === 'generated') {
      console.warn(`Generated an auth secret in ${env.DATA_DIR}/; set BETTER_AUTH_SECRET in production.`)
    }
    const connection = getDatabaseConnection()
    await connection.migrate()
    await getSiteSettings(connection.db)
    startMaintenance(connection.db)
    startAnalyticsJobs(connection.db)
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
  stopMaintenance()
  await stopAnalyticsJobs(getDatabaseConnection().db)
  await stopSettingsSync()
  await closeAuthResources()
  await getDatabaseConnection().close()
}
