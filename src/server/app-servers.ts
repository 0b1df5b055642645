import { hostname } from 'node:os'
import { desc, eq, gt, lt } from 'drizzle-orm'
import { version } from '../../package.json'
import type { Database } from './db/client'
import { appServers } from './db/schema'
import { log } from './log'
import { registerMaintenanceTask } from './maintenance'

/**
 * Which app processes run against this database (Console → System, issue 28): each one writes its row at start and
 * every 15 s, and removes it as it stops, so a rolling restart shows each server leave and come back.
 */

/** The commit the build was made from (vite.config.ts), when it was built from a git checkout. */
declare const __HATCH_COMMIT__: string | null | undefined

/** The app's version (package.json) and the commit it was built from, when the build knew it. */
export const appVersion = { version, commit: typeof __HATCH_COMMIT__ === 'string' ? __HATCH_COMMIT__ : null }

const heartbeatSeconds = 15
/** A process not heard from for this long has stopped without saying so (killed, its machine gone). */
export const seenWithinSeconds = 60

const thisServerId = `${hostname()}:${process.pid}`
let timer: NodeJS.Timeout | undefined
let heartbeatDb: Database | undefined

async function beat(db: Database, startedAt: Date): Promise<void> {
  const now = new Date()
  await db
    .insert(appServers)
    .values({
      id: thisServerId,
      hostname: hostname(),
      pid: process.pid,
      version: appVersion.commit ? `${version} (${appVersion.commit})` : version,
      startedAt,
      seenAt: now,
    })
    .onConflictDoUpdate({ target: appServers.id, set: { seenAt: now } })
}

export async function startHeartbeat(db: Database, startedAt: Date): Promise<void> {
  if (timer) return
  heartbeatDb = db
  await beat(db, startedAt)
  timer = setInterval(() => {
    // A missed beat (the database busy or away) only makes this server look quiet for a moment.
    beat(db, startedAt).catch((error: unknown) => log().warn({ err: error }, 'the server heartbeat was not written'))
  }, heartbeatSeconds * 1000)
  timer.unref()
}

/** Part of a graceful shutdown: this server is no longer one of those running. */
export async function stopHeartbeat(): Promise<void> {
  if (!timer || !heartbeatDb) return
  clearInterval(timer)
  timer = undefined
  await heartbeatDb
    .delete(appServers)
    .where(eq(appServers.id, thisServerId))
    .catch(() => undefined)
}

export interface SeenServer {
  id: string
  hostname: string
  pid: number
  version: string
  startedAt: Date
  seenAt: Date
  thisOne: boolean
}

export async function serversSeen(db: Database): Promise<SeenServer[]> {
  const since = new Date(Date.now() - seenWithinSeconds * 1000)
  const rows = await db
    .select()
    .from(appServers)
    .where(gt(appServers.seenAt, since))
    .orderBy(desc(appServers.startedAt))
  return rows.map((row) => ({ ...row, thisOne: row.id === thisServerId }))
}

// Rows of processes that stopped without a word (a crash, SIGKILL) are kept a day, then dropped.
registerMaintenanceTask('forgetting app servers not seen for a day', async (db) => {
  await db.delete(appServers).where(lt(appServers.seenAt, new Date(Date.now() - 86_400_000)))
})
