import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { DatabaseConnection, RawQuery } from '../db/client'
import type { FileStorage } from '../files/storage'
import { type BackupStore, backupName } from './backup-store'
import { type BackupManifest, countTables, describeFiles, manifestName, readTotals } from './manifest'

export interface BackupSources {
  connection: DatabaseConnection
  /** Where uploaded files live (the local folder or the bucket); every file is copied under `files/`. */
  storage: FileStorage
  /** DATA_DIR's generated auth secret, when the app uses it (no BETTER_AUTH_SECRET): sessions and file links need it. */
  authSecretFile?: string
  /** The installed apps' figures to check after a restore (their server manifests' `backupTotals`). */
  totals: Readonly<Record<string, string>>
  app: BackupManifest['app']
  /** The migrations journal, to name the last applied migration. */
  migrationsFolder?: string
}

export interface TakenBackup {
  name: string
  location: string
  bytes: number
  manifest: BackupManifest
}

const databaseFiles = { pglite: 'database.tar.gz', postgres: 'database.pgdump' } as const

async function migrationTags(folder: string): Promise<string[]> {
  try {
    const journal = JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[]
    }
    return journal.entries.map((entry) => entry.tag)
  } catch {
    return []
  }
}

/**
 * Takes one backup while the app serves: the database copied in one snapshot with its row counts and the apps'
 * totals, then the uploaded files, the auth secret, and the manifest with every file's checksum. A file uploaded after
 * the snapshot may be in it too; one deleted meanwhile is not (the database still names it).
 */
export async function takeBackup(sources: BackupSources, store: BackupStore, now = new Date()): Promise<TakenBackup> {
  const name = backupName(now)
  const folder = await store.workFolder(name)
  try {
    const { engine } = sources.connection
    const databaseFile = databaseFiles[engine]
    const tags = await migrationTags(sources.migrationsFolder ?? path.resolve('drizzle'))
    const inSnapshot = await sources.connection.dumpInSnapshot(path.join(folder, databaseFile), async (query) => ({
      tables: await countTables(query),
      totals: await readTotals(query, sources.totals),
      ...(await databaseFacts(query)),
    }))
    const storedFiles = await copyStoredFiles(sources.storage, path.join(folder, 'files'))
    if (sources.authSecretFile) await copyFile(sources.authSecretFile, path.join(folder, 'auth-secret'))
    const applied = inSnapshot.tables['drizzle.__drizzle_migrations'] ?? 0
    const manifest: BackupManifest = {
      format: 1,
      app: sources.app,
      engine,
      databaseFile,
      postgresVersion: inSnapshot.postgresVersion,
      migrations: { applied, latest: tags[applied - 1] ?? null },
      startedAt: now.toISOString(),
      finishedAt: new Date().toISOString(),
      tables: inSnapshot.tables,
      totals: inSnapshot.totals,
      files: await describeFiles(folder),
      storedFiles,
      authSecret: Boolean(sources.authSecretFile),
    }
    await writeFile(path.join(folder, manifestName), `${JSON.stringify(manifest, null, 2)}\n`)
    const kept = await store.keep(folder, name)
    return { name, ...kept, manifest }
  } catch (error) {
    await rm(folder, { recursive: true, force: true })
    throw error
  }
}

async function databaseFacts(query: RawQuery): Promise<{ postgresVersion: string }> {
  const [row] = await query('show server_version')
  return { postgresVersion: String(row?.server_version ?? '') }
}

async function copyStoredFiles(storage: FileStorage, into: string): Promise<BackupManifest['storedFiles']> {
  const copied: BackupManifest['storedFiles'] = []
  for await (const key of storage.keys()) {
    const file = await storage.get(key)
    // Deleted since it was listed.
    if (!file) continue
    const target = path.join(into, ...key.split('/'))
    await mkdir(path.dirname(target), { recursive: true })
    await writeFile(target, file.body)
    copied.push({ key, contentType: file.contentType })
  }
  return copied.sort((a, b) => a.key.localeCompare(b.key))
}
