import path from 'node:path'
import { desc, eq, sql } from 'drizzle-orm'
import { appVersion } from '../app-servers'
import { resolveAuthSecret } from '../auth-secret'
import type { Database, DatabaseConnection } from '../db/client'
import { embeddedDataDir, getDatabaseConnection } from '../db/database'
import { backupRuns, users } from '../db/schema'
import { type Env, getEnv } from '../env'
import { fileStorage } from '../files/configured-storage'
import type { FileStorage } from '../files/storage'
import { defineJob, type JobDefinition } from '../jobs/queue'
import { log } from '../log'
import { notify } from '../organization-events'
import { type BackupStore, backupStore, fetchBackup, parseS3Address, type S3Access } from './backup-store'
import { type RestoredBackup, restoreBackup } from './restore-backup'
import { backupRetention, backupsToRemove } from './retention'
import { type TakenBackup, takeBackup } from './take-backup'

export type BackupTrigger = 'scheduled' | 'command'

/** Where backups go: BACKUP_TO, else DATA_DIR/backups. */
export function backupDestination(env: Env = getEnv()): string {
  return env.BACKUP_TO ?? path.resolve(env.DATA_DIR, 'backups')
}

/** The S3 keys, for a backup bucket (BACKUP_TO=s3://…) or a restore from one. */
export function s3Access(env: Env = getEnv()): S3Access | undefined {
  if (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY) return undefined
  return {
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
  }
}

/** Whether the backups land beside the data they protect (a folder inside DATA_DIR): one lost disk loses both. */
export function backupsBesideData(env: Env = getEnv()): boolean {
  const destination = backupDestination(env)
  if (parseS3Address(destination)) return false
  const relative = path.relative(path.resolve(env.DATA_DIR), path.resolve(destination))
  return !relative.startsWith('..') && !path.isAbsolute(relative)
}

/** What the installed apps ask a backup to record and a restore to check. */
export async function appBackupTotals(): Promise<Record<string, string>> {
  const { serverApps } = await import('../apps.gen')
  return Object.assign({}, ...serverApps.map((app) => app.backupTotals ?? {}))
}

/**
 * Takes a backup of this install into `destination` (default: BACKUP_TO) and records it in `backup_runs`, whether it
 * succeeds or fails. A scheduled one then removes what the retention no longer keeps.
 */
export async function backUpNow(
  trigger: BackupTrigger,
  options: { destination?: string; env?: Env; connection?: DatabaseConnection; storage?: FileStorage } = {},
): Promise<TakenBackup> {
  const env = options.env ?? getEnv()
  const connection = options.connection ?? getDatabaseConnection()
  const { db } = connection
  const store = backupStore(options.destination ?? backupDestination(env), s3Access(env))
  const [run] = await db.insert(backupRuns).values({ trigger, status: 'running' }).returning({ id: backupRuns.id })
  if (!run) throw new Error('the backup run was not recorded')
  try {
    const secret = resolveAuthSecret({ configured: env.BETTER_AUTH_SECRET, dataDir: env.DATA_DIR })
    const taken = await takeBackup(
      {
        connection,
        storage: options.storage ?? fileStorage(),
        authSecretFile: secret.source === 'environment' ? undefined : path.resolve(env.DATA_DIR, 'auth-secret'),
        totals: await appBackupTotals(),
        app: appVersion,
      },
      store,
    )
    await db
      .update(backupRuns)
      .set({ status: 'succeeded', finishedAt: new Date(), location: taken.location, bytes: taken.bytes })
      .where(eq(backupRuns.id, run.id))
    log().info({ location: taken.location, bytes: taken.bytes, trigger }, 'backup taken')
    if (trigger === 'scheduled') await removeOldBackups(store)
    return taken
  } catch (error) {
    await db
      .update(backupRuns)
      .set({ status: 'failed', finishedAt: new Date(), error: errorText(error) })
      .where(eq(backupRuns.id, run.id))
      .catch(() => undefined)
    throw error
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000)
}

async function removeOldBackups(store: BackupStore): Promise<void> {
  const old = backupsToRemove(await store.list(), new Date(), backupRetention)
  for (const backup of old) await store.remove(backup.name)
  if (old.length > 0) log().info({ removed: old.map((backup) => backup.name) }, 'old backups removed')
}

/**
 * A path as an operator reads it on Console → System: relative to the project (`data/backups/…`) when it is inside
 * it, so that the page shows no more of the machine's folders than it needs to.
 */
function forDisplay(text: string): string {
  return text.replaceAll(`${process.cwd()}${path.sep}`, '')
}

/** The newest backup that succeeded, and the newest attempt if it came after it and failed. */
export async function backupStatus(db: Database, env: Env = getEnv()) {
  const [latest] = await db
    .select({ finishedAt: backupRuns.finishedAt, location: backupRuns.location, bytes: backupRuns.bytes })
    .from(backupRuns)
    .where(eq(backupRuns.status, 'succeeded'))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1)
  const [lastFailure] = await db
    .select({ at: backupRuns.finishedAt, error: backupRuns.error })
    .from(backupRuns)
    .where(
      sql`${backupRuns.status} = 'failed' and ${backupRuns.finishedAt} > coalesce(${latest?.finishedAt ?? null}::timestamptz, '-infinity')`,
    )
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1)
  return {
    latest: latest?.finishedAt
      ? { at: latest.finishedAt, location: forDisplay(latest.location ?? ''), bytes: latest.bytes ?? 0 }
      : null,
    lastFailure: lastFailure?.at ? { at: lastFailure.at, error: forDisplay(lastFailure.error ?? '') } : null,
    schedule: env.BACKUP_SCHEDULE,
    destination: forDisplay(backupDestination(env)),
    besideData: backupsBesideData(env),
  }
}

async function appAdminIds(db: Database): Promise<string[]> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'))).map((row) => row.id)
}

/**
 * The scheduled backup, once per tick across every server (pg-boss), never as a server starts: a first start has
 * nothing to keep yet. Its last failed attempt tells the app admins. `connection` and `storage`: what it backs up, the
 * process's own by default.
 */
export function backupJob(
  env: Env,
  sources: { connection?: DatabaseConnection; storage?: FileStorage } = {},
): JobDefinition<object> {
  return defineJob<object>({
    name: 'backup',
    retryLimit: 2,
    retryDelaySeconds: 600,
    expireInSeconds: 3 * 3600,
    ...(env.BACKUP_SCHEDULE === 'off'
      ? {}
      : { schedule: { cron: env.BACKUP_SCHEDULE, periodSeconds: 86_400, atStart: false } }),
    run: async (db, _data, attempt) => {
      try {
        await backUpNow('scheduled', { env, ...sources })
      } catch (error) {
        if (attempt.last) {
          await notify(db, await appAdminIds(db), {
            type: 'backup_failed',
            params: { reason: errorText(error).slice(0, 200) },
            link: '/console/system',
          })
        }
        throw error
      }
    },
  })
}

/**
 * Restores `source` (a backup folder, or `s3://bucket/prefix/hatch-backup-…`) into this install's database and file
 * storage, as the environment names them; the database must be empty unless `force`.
 */
export async function restoreFromBackup(source: string, options: { force: boolean }): Promise<RestoredBackup> {
  const env = getEnv()
  const fetched = await fetchBackup(source, s3Access(env))
  try {
    return await restoreBackup(fetched.folder, {
      database: env.DATABASE_URL
        ? { engine: 'postgres', url: env.DATABASE_URL }
        : { engine: 'pglite', dataDir: embeddedDataDir(env) },
      storage: fileStorage,
      dataDir: env.DATA_DIR,
      secretConfigured: Boolean(env.BETTER_AUTH_SECRET),
      totals: await appBackupTotals(),
      force: options.force,
    })
  } finally {
    await fetched.cleanUp()
  }
}
