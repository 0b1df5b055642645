import { startHeartbeat, stopHeartbeat } from './app-servers'
import { closeAuthResources } from './auth/auth'
import { resolveAuthSecret } from './auth-secret'
import { backupJob } from './backups/backups'
import { startOperatorSocket, stopOperatorSocket } from './backups/operator-socket'
import type { Database } from './db/client'
import { getDatabaseConnection } from './db/database'
import { getEnv } from './env'
import { defineJob, type PromisedJobQueue, promiseJobQueue, startJobQueue, stopJobQueue } from './jobs/queue'
import { startLiveUpdates, stopLiveUpdates } from './live-updates'
import { log } from './log'
// Defines the hourly maintenance job before the queue starts (the features register their tasks in it).
import { registerMaintenanceTask } from './maintenance'
import { startMetrics } from './metrics'
import { getSiteSettings } from './settings'
import { startSettingsSync, stopSettingsSync } from './settings-sync'

export const startedAt = new Date()
let ready: Promise<void> | undefined
let promisedJobQueue: PromisedJobQueue | undefined

/**
 * Everything the server needs before it answers a request: a valid environment, an open database with every
 * migration applied, and warm settings. Runs once per process; the production server awaits it before listening.
 *
 * `jobs`: `'now'` (the default) starts the job queue before it resolves; `'later'` leaves it for `startPromisedJobQueue`,
 * jobs sent meanwhile waiting for it; `'none'` runs no queue (a command-line task).
 */
export function ensureServerReady(options: { jobs?: 'now' | 'later' | 'none' } = {}): Promise<void> {
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
    if (options.jobs !== 'none') {
      backupJob(env)
      await startInstalledApps()
      if (options.jobs === 'later') promisedJobQueue = promiseJobQueue(connection)
      else await startJobQueue(connection)
      startMetrics(connection)
      await startHeartbeat(connection.db, startedAt)
      // `npm run db:backup` reaches the one process that holds the embedded database through DATA_DIR.
      if (connection.engine === 'pglite') await startOperatorSocket(env.DATA_DIR)
    }
    await startSettingsSync(connection.db, env.REDIS_URL)
    await startLiveUpdates(env.REDIS_URL)
  })()
  // A failed start (bad variable, database down) is retried by the next request in development; the production
  // server exits instead.
  ready.catch(() => {
    ready = undefined
  })
  return ready
}

/**
 * Gives the installed apps' background work (their server/app.ts; docs/decisions/042) to the core before the job
 * queue starts: their jobs, their hourly housekeeping (after the core's), what they finish before the server stops.
 * Read here, when the server starts, so that no core module imports an app's code while it loads.
 */
async function startInstalledApps(): Promise<void> {
  const { serverApps } = await import('./apps.gen')
  for (const app of serverApps) {
    for (const job of (await app.jobs?.()) ?? []) defineJob(job)
    for (const task of app.maintenanceTasks ?? []) registerMaintenanceTask(task.name, task.run)
    for (const task of app.shutdownTasks ?? []) registerShutdownTask(task.name, task.run)
  }
}

/**
 * Starts the job queue that `ensureServerReady({ jobs: 'later' })` promised. Starting pg-boss takes about 20
 * statements, which on the embedded database share the one thread with the first requests: the production server calls
 * this once its first answer has gone out (scripts/serve.ts).
 */
export function startPromisedJobQueue(): Promise<void> {
  return promisedJobQueue?.start() ?? Promise.resolve()
}

/** Work the features hand in (the composition root, feature-tasks.ts, registers it) to finish before the database closes. */
const shutdownTasks = new Map<string, (db: Database) => Promise<unknown>>()

export function registerShutdownTask(name: string, task: (db: Database) => Promise<unknown>): void {
  shutdownTasks.set(name, task)
}

/** Runs every task; one failing is logged and does not keep the others (or the database's closing) from running. */
async function runShutdownTasks(db: Database): Promise<void> {
  for (const [name, task] of shutdownTasks) {
    await task(db).catch((error: unknown) => log().error({ err: error, task: name }, 'a shutdown task failed'))
  }
}

/** Closes Redis and the database; called once in-flight requests have finished during shutdown. */
export async function closeServerResources(): Promise<void> {
  await stopOperatorSocket()
  await stopHeartbeat()
  await stopJobQueue()
  await runShutdownTasks(getDatabaseConnection().db)
  await stopSettingsSync()
  await stopLiveUpdates()
  await closeAuthResources()
  await getDatabaseConnection().close()
}
