import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backupStore, fetchBackup } from '#/server/backups/backup-store'
import { BackupInvalid, type BackupManifest, manifestName } from '#/server/backups/manifest'
import { RestoreRefused, type RestoreTarget, restoreBackup } from '#/server/backups/restore-backup'
import { type TakenBackup, takeBackup } from '#/server/backups/take-backup'
import type { DatabaseConfig, DatabaseEngine } from '#/server/db/client'
import { openDatabase } from '#/server/db/client'
import { localFileStorage } from '#/server/files/local-storage'
import { s3FileStorage } from '#/server/files/s3-storage'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'
import { startTestS3Server } from '../support/s3-server'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

const origin = 'http://localhost:3000'
const secret = 'a-generated-secret-of-at-least-32-characters'
/** A figure the restore checks besides the row counts, as an app's `backupTotals` would give it. */
const totals = { 'writes: summed counts': 'select coalesce(sum(count), 0) from rate_limits' }

function temporaryFolder(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix))
}

/** A database to restore into: an embedded folder that does not exist yet, or an empty PostgreSQL database. */
async function emptyTarget(engine: DatabaseEngine): Promise<{ config: DatabaseConfig; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const parent = temporaryFolder('hatch-restore-target-')
    return {
      config: { engine, dataDir: path.join(parent, 'pglite') },
      drop: async () => rmSync(parent, { recursive: true, force: true }),
    }
  }
  const database = await createThrowawayPostgresDatabase(process.env.DATABASE_URL as string, 'hatch_restore')
  return { config: { engine, url: database.url }, drop: database.drop }
}

async function rowsOf(config: DatabaseConfig, text: string): Promise<Record<string, unknown>[]> {
  const connection = openDatabase(config)
  try {
    return ((await connection.db.execute(text)) as unknown as { rows: Record<string, unknown>[] }).rows
  } finally {
    await connection.close()
  }
}

describe.each(coreEngines)('backups of a %s database', (engine) => {
  let database: FreshDatabase
  const folders: string[] = []
  const folder = (prefix: string) => {
    const made = temporaryFolder(prefix)
    folders.push(made)
    return made
  }
  let taken: TakenBackup
  let acknowledgedBefore: string[]
  let acknowledgedTotal = 0

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    const files = localFileStorage({ root: folder('hatch-backup-files-'), appUrl: origin, secret })
    await files.put('avatars/ada/photo-256.webp', new Uint8Array([1, 2, 3, 4]), 'image/webp')
    await files.put('organizations/org-1/files/report.pdf', new TextEncoder().encode('%PDF-1.7'), 'application/pdf')
    const secretFile = path.join(folder('hatch-backup-secret-'), 'auth-secret')
    writeFileSync(secretFile, `${secret}\n`)

    // Writers keep writing while the backup is taken; each write is acknowledged when its statement returns.
    const acknowledged: string[] = []
    let writing = true
    const writer = async (name: string) => {
      for (let index = 0; writing; index++) {
        const key = `${name}-${index}`
        await database.connection.db.execute(
          `insert into rate_limits (key, count, window_started_at) values ('${key}', ${index + 1}, now())`,
        )
        acknowledged.push(key)
        // Requests arrive through the event loop: an embedded query resolves without leaving it, so a loop of them
        // alone would never let the timers below run.
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    const writers = [writer('a'), writer('b'), writer('c')]
    await new Promise((resolve) => setTimeout(resolve, 150))
    acknowledgedBefore = [...acknowledged]
    taken = await takeBackup(
      {
        connection: database.connection,
        storage: files,
        authSecretFile: secretFile,
        totals,
        app: { version: '0.1.0', commit: null },
      },
      backupStore(folder('hatch-backups-')),
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    writing = false
    await Promise.all(writers)
    acknowledgedTotal = acknowledged.length
  }, 120_000)

  afterAll(async () => {
    await database.dispose()
    for (const made of folders) rmSync(made, { recursive: true, force: true })
  })

  const restoreTarget = (config: DatabaseConfig, overrides: Partial<RestoreTarget> = {}): RestoreTarget => ({
    database: config,
    storage: () => localFileStorage({ root: folder('hatch-restored-files-'), appUrl: origin, secret }),
    dataDir: folder('hatch-restored-data-'),
    secretConfigured: false,
    totals,
    force: false,
    ...overrides,
  })

  it('records the database, the files, the secret and a manifest whose counts match the snapshot', async () => {
    const manifest = taken.manifest
    expect(manifest.engine).toBe(engine)
    expect(manifest.migrations.applied).toBeGreaterThan(30)
    expect(manifest.migrations.latest).toMatch(/^\d{4}_/)
    expect(manifest.tables['public.rate_limits']).toBeGreaterThanOrEqual(acknowledgedBefore.length)
    // Written while the backup ran: the snapshot holds some of them, not those after it.
    expect(manifest.tables['public.rate_limits']).toBeLessThan(acknowledgedTotal)
    expect(manifest.storedFiles.map((file) => file.key)).toEqual([
      'avatars/ada/photo-256.webp',
      'organizations/org-1/files/report.pdf',
    ])
    expect(manifest.files.map((file) => file.path)).toEqual(
      expect.arrayContaining([manifest.databaseFile, 'auth-secret', 'files/avatars/ada/photo-256.webp']),
    )
    expect(readdirSync(path.dirname(taken.location)).filter((name) => name.endsWith('.partial'))).toEqual([])
  })

  it('restores into an empty database with every write acknowledged before the backup began', async () => {
    const target = await emptyTarget(engine)
    try {
      const filesRoot = folder('hatch-restored-files-')
      const restoredFiles = localFileStorage({ root: filesRoot, appUrl: origin, secret })
      const into = restoreTarget(target.config, { storage: () => restoredFiles })
      const restored = await restoreBackup(taken.location, into)
      expect(restored.notes.join(' ')).toMatch(/row counts and 1 total\(s\) match the manifest/)
      const keys = new Set((await rowsOf(target.config, 'select key from rate_limits')).map((row) => String(row.key)))
      expect(acknowledgedBefore.filter((key) => !keys.has(key))).toEqual([])
      expect(keys.size).toBe(taken.manifest.tables['public.rate_limits'])
      const [sum] = await rowsOf(target.config, 'select coalesce(sum(count), 0)::bigint as total from rate_limits')
      expect(Number(sum?.total)).toBe(taken.manifest.totals['writes: summed counts'])
      expect(await restoredFiles.get('organizations/org-1/files/report.pdf')).toEqual({
        body: new TextEncoder().encode('%PDF-1.7'),
        contentType: 'application/pdf',
      })
      expect(readFileSync(path.join(into.dataDir, 'auth-secret'), 'utf8')).toBe(`${secret}\n`)
    } finally {
      await target.drop()
    }
  }, 60_000)

  it('refuses a damaged backup and leaves the target untouched', async () => {
    const damaged = path.join(folder('hatch-damaged-'), 'copy')
    cpSync(taken.location, damaged, { recursive: true })
    const databaseFile = path.join(damaged, taken.manifest.databaseFile)
    const bytes = await readFile(databaseFile)
    const middle = Math.floor(bytes.length / 2)
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff
    writeFileSync(databaseFile, bytes)
    const target = await emptyTarget(engine)
    try {
      await expect(restoreBackup(damaged, restoreTarget(target.config))).rejects.toThrow(BackupInvalid)
      await expect(restoreBackup(damaged, restoreTarget(target.config))).rejects.toThrow(
        /database\.(tar\.gz|pgdump) differs from what was backed up/,
      )
      if (target.config.engine === 'pglite') expect(existsSync(target.config.dataDir)).toBe(false)
      else
        expect(
          await rowsOf(target.config, `select 1 from information_schema.tables where table_schema = 'public'`),
        ).toEqual([])
    } finally {
      await target.drop()
    }
  })

  it('refuses a backup whose restored counts differ from its manifest', async () => {
    const altered = path.join(folder('hatch-altered-'), 'copy')
    cpSync(taken.location, altered, { recursive: true })
    const manifest = JSON.parse(readFileSync(path.join(altered, manifestName), 'utf8')) as BackupManifest
    manifest.tables['public.rate_limits'] = (manifest.tables['public.rate_limits'] ?? 0) + 1
    writeFileSync(path.join(altered, manifestName), JSON.stringify(manifest))
    const target = await emptyTarget(engine)
    try {
      await expect(restoreBackup(altered, restoreTarget(target.config))).rejects.toThrow(
        /public\.rate_limits: \d+ backed up, \d+ restored/,
      )
    } finally {
      await target.drop()
    }
  }, 60_000)

  it('refuses a target that holds data unless forced, and refuses the other engine', async () => {
    const target = await emptyTarget(engine)
    try {
      await restoreBackup(taken.location, restoreTarget(target.config))
      await expect(restoreBackup(taken.location, restoreTarget(target.config))).rejects.toThrow(RestoreRefused)
      await expect(restoreBackup(taken.location, restoreTarget(target.config, { force: true }))).resolves.toMatchObject(
        {
          manifest: { engine },
        },
      )
      const other: DatabaseConfig =
        engine === 'pglite'
          ? { engine: 'postgres', url: 'postgres://127.0.0.1:1/none' }
          : { engine: 'pglite', dataDir: '/nonexistent' }
      await expect(restoreBackup(taken.location, restoreTarget(other))).rejects.toThrow(/This backup is of/)
    } finally {
      await target.drop()
    }
  }, 60_000)
})

describe('backups in a bucket', () => {
  let s3: Awaited<ReturnType<typeof startTestS3Server>>
  let uploads: Awaited<ReturnType<typeof startTestS3Server>>
  let database: FreshDatabase
  beforeAll(async () => {
    s3 = await startTestS3Server('hatch-backups')
    uploads = await startTestS3Server('hatch-uploads')
    database = await createFreshDatabase('pglite')
  }, 60_000)
  afterAll(async () => {
    await database.dispose()
    await s3.close()
    await uploads.close()
  })

  it('are uploaded manifest last, listed, fetched back whole and removed', async () => {
    const store = backupStore('s3://hatch-backups/nightly', s3.settings)
    const files = s3FileStorage(uploads.settings)
    await files.put('avatars/bo/photo-256.webp', new Uint8Array([9, 9]), 'image/webp')
    const taken = await takeBackup(
      { connection: database.connection, storage: files, totals: {}, app: { version: '0.1.0', commit: null } },
      store,
    )
    expect(taken.location).toMatch(/^s3:\/\/hatch-backups\/nightly\/hatch-backup-\d{8}T\d{9}Z$/)
    expect(await store.list()).toEqual([{ name: taken.name, takenAt: expect.any(Date) }])
    const fetched = await fetchBackup(taken.location, s3.settings)
    try {
      const manifest = JSON.parse(readFileSync(path.join(fetched.folder, manifestName), 'utf8')) as BackupManifest
      expect(manifest.storedFiles).toEqual([{ key: 'avatars/bo/photo-256.webp', contentType: 'image/webp' }])
      const target = await emptyTarget('pglite')
      try {
        await expect(
          restoreBackup(fetched.folder, {
            database: target.config,
            storage: () => files,
            dataDir: path.dirname((target.config as { dataDir: string }).dataDir),
            secretConfigured: false,
            totals: {},
            force: false,
          }),
        ).resolves.toMatchObject({ manifest: { engine: 'pglite' } })
      } finally {
        await target.drop()
      }
    } finally {
      await fetched.cleanUp()
    }
    await store.remove(taken.name)
    expect(await store.list()).toEqual([])
  }, 60_000)
})
