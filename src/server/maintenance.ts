import { type Database, vacuumEmbeddedDatabase } from './db/client'
import { keptEmailRetentionDays, purgeOldKeptEmails } from './email/kept-emails'
import { defineJob } from './jobs/queue'
import { log } from './log'

/** Tasks the features hand in (the composition root, src/server.ts, registers them): each idempotent. */
const tasks = new Map<string, (db: Database) => Promise<unknown>>([
  [`deleting emails kept without SMTP older than ${keptEmailRetentionDays} days`, purgeOldKeptEmails],
  ['vacuuming the embedded database and refreshing its planner statistics', (db) => vacuumEmbeddedDatabase(db)],
])

export function registerMaintenanceTask(name: string, task: (db: Database) => Promise<unknown>): void {
  tasks.set(name, task)
}

/** Runs every task; one failing does not stop the others, and the job fails (to be retried) if any did. */
export async function runMaintenanceTasks(db: Database): Promise<void> {
  const failures: string[] = []
  for (const [name, task] of tasks) {
    try {
      await task(db)
    } catch (error) {
      log().error({ err: error, task: name }, 'a maintenance task failed')
      failures.push(name)
    }
  }
  if (failures.length > 0) throw new Error(`Maintenance tasks failed: ${failures.join(', ')}`)
}

/** Housekeeping once an hour, and as a server starts, by one server whatever their number (the job queue). */
export const maintenanceJob = defineJob<object>({
  name: 'maintenance',
  retryLimit: 2,
  retryDelaySeconds: 60,
  schedule: { cron: '7 * * * *', periodSeconds: 3600 },
  run: (db) => runMaintenanceTasks(db),
})
