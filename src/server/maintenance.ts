import { lt } from 'drizzle-orm'
import { bookLimits } from '#/lib/book-rules'
import type { Database } from './db/client'
import { books } from './db/schema'

const hourMs = 3_600_000

/** Deletes for good the books deleted more than the retention period ago; returns how many. */
export async function purgeDeletedBooks(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - bookLimits.restoreDays * 86_400_000)
  const purged = await db.delete(books).where(lt(books.deletedAt, cutoff)).returning({ id: books.id })
  return purged.length
}

let timer: ReturnType<typeof setInterval> | undefined

/** Tasks the features hand in (the composition root, src/server.ts, registers them): each idempotent. */
const tasks = new Map<string, (db: Database) => Promise<unknown>>([['purging deleted books', purgeDeletedBooks]])

export function registerMaintenanceTask(name: string, task: (db: Database) => Promise<unknown>): void {
  tasks.set(name, task)
}

/**
 * Housekeeping every server does once at start and then hourly. Several servers may run it at once: each task is
 * idempotent.
 */
export function startMaintenance(db: Database): void {
  if (timer) return
  const run = () => {
    for (const [name, task] of tasks) {
      task(db).catch((error: unknown) => console.error(`[maintenance] ${name} failed`, error))
    }
  }
  void run()
  timer = setInterval(run, hourMs)
  // Never the reason a process stays alive.
  timer.unref()
}

export function stopMaintenance(): void {
  clearInterval(timer)
  timer = undefined
}
