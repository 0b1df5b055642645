import { existsSync } from 'node:fs'
import { chmod, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { type DatabaseConfig, openDatabase, runPostgresTool } from '../db/client'
import type { FileStorage } from '../files/storage'
import {
  BackupInvalid,
  type BackupManifest,
  countTables,
  figureDifferences,
  readTotals,
  readVerifiedManifest,
} from './manifest'

export interface RestoreTarget {
  database: DatabaseConfig
  /** Where the uploaded files go back; asked for after the auth secret is back (local file links are signed with it). */
  storage: () => FileStorage
  /** DATA_DIR: where a backed-up generated auth secret goes. */
  dataDir: string
  /** BETTER_AUTH_SECRET is set: the app does not read a generated secret. */
  secretConfigured: boolean
  /** The installed apps' figures (their `backupTotals`), to compare with the manifest's. */
  totals: Readonly<Record<string, string>>
  /** Replace what the target holds (the embedded folder is moved aside, not deleted). */
  force: boolean
}

export interface RestoredBackup {
  manifest: BackupManifest
  /** What the restore did beside the database, and what it could not check, a sentence each. */
  notes: string[]
}

/** The target holds data and `--force` was not given: nothing was changed. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused'
}

/** The schemas a Hatch database has: the app's tables, drizzle's migrations, the job queue. */
const appSchemas = ['public', 'drizzle', 'pgboss']

/**
 * Restores a backup folder into an empty database (a new embedded folder, or an empty PostgreSQL database), then
 * checks the restored database against the manifest, row counts per table and the apps' totals, before it puts the
 * files back. Refuses a damaged backup, an engine other than the backup's, and a target that holds data unless
 * `force`; each refusal leaves the target as it was.
 */
export async function restoreBackup(folder: string, target: RestoreTarget): Promise<RestoredBackup> {
  const manifest = await readVerifiedManifest(folder)
  const notes: string[] = []
  if (manifest.engine !== target.database.engine) {
    throw new RestoreRefused(
      manifest.engine === 'pglite'
        ? 'This backup is of the embedded database: restore it without DATABASE_URL, into DATA_DIR.'
        : 'This backup is of a PostgreSQL database: restore it with DATABASE_URL set to an empty database.',
    )
  }
  const secretFile = path.join(target.dataDir, 'auth-secret')
  const restoreSecret = manifest.authSecret && !target.secretConfigured
  const backedUpSecret = restoreSecret ? await readFile(path.join(folder, 'auth-secret'), 'utf8') : undefined
  const secretDiffers =
    backedUpSecret !== undefined && existsSync(secretFile) && (await readFile(secretFile, 'utf8')) !== backedUpSecret
  if (secretDiffers && !target.force) {
    throw new RestoreRefused(`${secretFile} holds another secret; add --force to replace it with the backup's.`)
  }
  const databaseFile = path.join(folder, manifest.databaseFile)
  if (target.database.engine === 'pglite') {
    await restoreEmbedded(databaseFile, target.database.dataDir, target.force)
  } else {
    await restorePostgres(databaseFile, target.database.url, target.force)
  }
  await checkRestoredDatabase(target.database, manifest, target.totals, notes)
  if (backedUpSecret !== undefined) {
    await mkdir(target.dataDir, { recursive: true })
    await writeFile(secretFile, backedUpSecret, { mode: 0o600 })
    await chmod(secretFile, 0o600)
    notes.push(`The generated auth secret was put back in ${secretFile}: sessions and file links stay valid.`)
  } else if (manifest.authSecret) {
    notes.push("BETTER_AUTH_SECRET is set, so the backup's generated secret was not put back: people sign in again.")
  }
  const storage = target.storage()
  for (const stored of manifest.storedFiles) {
    const body = await readFile(path.join(folder, 'files', ...stored.key.split('/')))
    await storage.put(stored.key, new Uint8Array(body), stored.contentType)
  }
  if (manifest.storedFiles.length > 0) {
    notes.push(
      `${manifest.storedFiles.length} uploaded file(s) put back (${storage.kind === 's3' ? 'bucket' : 'folder'}).`,
    )
  }
  return { manifest, notes }
}

async function restoreEmbedded(file: string, dataDir: string, force: boolean): Promise<void> {
  const holdsData = existsSync(dataDir) && (await readdir(dataDir)).length > 0
  if (holdsData) {
    if (!force) {
      throw new RestoreRefused(
        `${dataDir} already holds a database; restore into an empty DATA_DIR, or add --force to move it aside.`,
      )
    }
    await rename(dataDir, `${dataDir}.before-restore-${Date.now()}`)
  }
  await mkdir(path.dirname(dataDir), { recursive: true })
  const { PGlite } = await import('@electric-sql/pglite')
  const restored = await PGlite.create(dataDir, { loadDataDir: new Blob([new Uint8Array(await readFile(file))]) })
  await restored.close()
}

async function restorePostgres(file: string, url: string, force: boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ tables: number }>(
      'select count(*)::int as tables from information_schema.tables where table_schema = any($1)',
      [appSchemas],
    )
    if ((rows[0]?.tables ?? 0) > 0) {
      if (!force) {
        throw new RestoreRefused(
          'The database at DATABASE_URL already holds tables; restore into an empty database, or add --force to replace them.',
        )
      }
      await client.query(
        `${appSchemas.map((schema) => `drop schema if exists "${schema}" cascade;`).join(' ')} create schema public;`,
      )
    }
  } finally {
    await client.end()
  }
  await runPostgresTool('pg_restore', url, [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    file,
  ])
}

/** Reads the restored database's counts and totals and fails on any that differs from the manifest. */
async function checkRestoredDatabase(
  config: DatabaseConfig,
  manifest: BackupManifest,
  totals: Readonly<Record<string, string>>,
  notes: string[],
): Promise<void> {
  const connection = openDatabase(config)
  try {
    const query = async (text: string) =>
      ((await connection.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows
    const known = Object.fromEntries(Object.entries(totals).filter(([name]) => name in manifest.totals))
    const unknown = Object.keys(manifest.totals).filter((name) => !(name in totals))
    if (unknown.length > 0) notes.push(`Not checked (no installed app reads them): ${unknown.join(', ')}.`)
    const expectedTotals = Object.fromEntries(Object.entries(manifest.totals).filter(([name]) => name in totals))
    const differences = [
      ...figureDifferences(manifest.tables, await countTables(query)),
      ...figureDifferences(expectedTotals, await readTotals(query, known)),
    ]
    if (differences.length > 0) {
      throw new BackupInvalid(`The restored database differs from the backup's manifest: ${differences.join('; ')}`)
    }
    notes.push(
      `Checked: ${Object.keys(manifest.tables).length} tables' row counts and ${Object.keys(known).length} total(s) match the manifest.`,
    )
  } finally {
    await connection.close()
  }
}
