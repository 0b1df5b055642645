import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { DatabaseEngine, RawQuery } from '../db/client'

/**
 * What a backup holds and how to check it (docs/decisions/049-backups.md), written last as `manifest.json`: a folder
 * without one is a backup that did not finish. Counts and totals were read in the same snapshot the database copy was
 * taken in, so a restored database must show exactly them.
 */
export interface BackupManifest {
  format: 1
  /** Hatch's version (package.json) and commit, when the build knows it. */
  app: { version: string; commit: string | null }
  engine: DatabaseEngine
  /** The file holding the database: PGlite's data folder (tar, gzip) or `pg_dump`'s custom format. */
  databaseFile: string
  /** The server's `server_version`: an embedded copy opens only in a PGlite of the same PostgreSQL major. */
  postgresVersion: string
  /** How many migrations the database had applied, and the last one's tag. */
  migrations: { applied: number; latest: string | null }
  startedAt: string
  finishedAt: string
  /** Rows per table (`schema.table`), in the snapshot. */
  tables: Record<string, number>
  /** The installed apps' own figures (billing's ledger), in the snapshot: `app: name` → number. */
  totals: Record<string, number>
  /** Every file of the backup but this one, with its SHA-256. */
  files: { path: string; bytes: number; sha256: string }[]
  /** The uploaded files copied under `files/`, with the type each was stored with. */
  storedFiles: { key: string; contentType: string }[]
  /** Whether the generated auth secret (`auth-secret`) is in the backup. */
  authSecret: boolean
}

export const manifestName = 'manifest.json'

/** The schemas a backup counts: the app's tables and drizzle's record of the migrations (the job queue's churn is not). */
const countedSchemas = ['public', 'drizzle']

/** Rows per table, read with `query` (inside the snapshot). */
export async function countTables(query: RawQuery): Promise<Record<string, number>> {
  const tables = await query(
    `select table_schema as schema, table_name as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema in (${countedSchemas.map((name) => `'${name}'`).join(', ')})
     order by 1, 2`,
  )
  if (tables.length === 0) return {}
  const quote = (name: unknown) => `"${String(name).replaceAll('"', '""')}"`
  const [row] = await query(
    `select ${tables
      .map((table, index) => `(select count(*) from ${quote(table.schema)}.${quote(table.name)})::bigint as c${index}`)
      .join(', ')}`,
  )
  return Object.fromEntries(tables.map((table, index) => [`${table.schema}.${table.name}`, Number(row?.[`c${index}`])]))
}

/** Each named figure's value: `sql` answers one row whose first column is a number. */
export async function readTotals(query: RawQuery, totals: Readonly<Record<string, string>>) {
  const figures: Record<string, number> = {}
  for (const [name, text] of Object.entries(totals)) {
    const [row] = await query(text)
    figures[name] = Number(row ? Object.values(row)[0] : Number.NaN)
  }
  return figures
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** Every file under `folder` but the manifest, with sizes and checksums, in a stable order. */
export async function describeFiles(folder: string): Promise<BackupManifest['files']> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  const files: BackupManifest['files'] = []
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const full = path.join(entry.parentPath, entry.name)
    const relative = path.relative(folder, full).split(path.sep).join('/')
    if (relative === manifestName) continue
    files.push({ path: relative, bytes: (await stat(full)).size, sha256: await sha256Of(full) })
  }
  return files.sort((a, b) => a.path.localeCompare(b.path))
}

/** A backup that cannot be trusted: restoring it would give something other than what was backed up. */
export class BackupInvalid extends Error {
  override name = 'BackupInvalid'
}

/** Reads the manifest and checks every file it names against its size and checksum, and that nothing is missing. */
export async function readVerifiedManifest(folder: string): Promise<BackupManifest> {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(await readFile(path.join(folder, manifestName), 'utf8')) as BackupManifest
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
    throw new BackupInvalid(
      missing
        ? `${folder} has no ${manifestName}: it is not a backup, or the backup did not finish`
        : `${folder}/${manifestName} cannot be read: ${(error as Error).message}`,
    )
  }
  if (manifest.format !== 1) {
    throw new BackupInvalid(`${folder} is a backup of format ${manifest.format}; this version of Hatch reads format 1`)
  }
  const present = new Map((await describeFiles(folder)).map((file) => [file.path, file]))
  const problems: string[] = []
  for (const expected of manifest.files) {
    const found = present.get(expected.path)
    if (!found) problems.push(`${expected.path} is missing`)
    else if (found.bytes !== expected.bytes || found.sha256 !== expected.sha256) {
      problems.push(`${expected.path} differs from what was backed up (size or SHA-256)`)
    }
  }
  if (!manifest.files.some((file) => file.path === manifest.databaseFile)) {
    problems.push(`the manifest names no database file`)
  }
  if (problems.length > 0) throw new BackupInvalid(`${folder} is damaged: ${problems.join('; ')}`)
  return manifest
}

/** What differs between the figures a manifest promises and those read from a restored database. */
export function figureDifferences(
  expected: Readonly<Record<string, number>>,
  found: Readonly<Record<string, number>>,
): string[] {
  const differences: string[] = []
  for (const [name, value] of Object.entries(expected)) {
    if (found[name] !== value) differences.push(`${name}: ${value} backed up, ${found[name] ?? 'none'} restored`)
  }
  for (const name of Object.keys(found)) {
    if (!(name in expected)) differences.push(`${name}: not in the backup, ${found[name]} restored`)
  }
  return differences
}
