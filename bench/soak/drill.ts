// The restore drill (docs/decisions/049-backups.md): halfway through the soak's traffic, `npm run db:backup` against the
// running server; after the run, `npm run db:restore` into a fresh database, which must hold every write the load
// generator saw acknowledged before the backup began, with the billing ledger balanced. The restore itself checks the
// counts and totals of the backup's manifest.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { root } from '../../scripts/project.ts'
import { createThrowawayPostgresDatabase } from '../../tests/support/postgres-database.ts'
import type { Acknowledged } from './acknowledged.ts'
import type { SoakDatabase } from './server.ts'
import { type Check, verifyDatabase } from './verify.ts'

export interface DrillBackup {
  /** What was acknowledged when the backup command started. */
  acknowledgedBefore: Acknowledged
  location?: string
  error?: string
  seconds: number
  /** The folder the backup went to (removed with `remove`). */
  folder: string
}

function copyOf(acknowledged: Acknowledged): Acknowledged {
  return {
    ...acknowledged,
    accounts: new Set(acknowledged.accounts),
    bookTitles: new Set(acknowledged.bookTitles),
    bookEdits: new Map(acknowledged.bookEdits),
    checkoutsStarted: new Set(acknowledged.checkoutsStarted),
    ordersPaid: new Set(acknowledged.ordersPaid),
    beacons: new Set(acknowledged.beacons),
  }
}

/** The environment of a command run against `database` as the soak server sees it (or a restore target). */
function environmentFor(database: { url?: string; dataDir: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: database.dataDir, LOG_LEVEL: 'warn' }
  if (database.url) env.DATABASE_URL = database.url
  else delete env.DATABASE_URL
  return env
}

function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, script), ...args], { cwd: root, env })
    let output = ''
    const keep = (chunk: Buffer) => {
      output = `${output}${chunk.toString()}`.slice(-20_000)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** Takes the backup after `afterSeconds` of traffic, while the traffic goes on. */
export async function backupDuringTraffic(
  database: SoakDatabase,
  acknowledged: Acknowledged,
  afterSeconds: number,
): Promise<DrillBackup> {
  await new Promise((resolve) => setTimeout(resolve, afterSeconds * 1000))
  const folder = mkdtempSync(path.join(tmpdir(), 'hatch-soak-backups-'))
  const acknowledgedBefore = copyOf(acknowledged)
  const started = performance.now()
  const { code, output } = await runScript('scripts/db-backup.ts', ['--to', folder], environmentFor(database))
  const seconds = (performance.now() - started) / 1000
  const location = /^Backup taken [^:]*: (.+)$/m.exec(output)?.[1]?.trim()
  return code === 0 && location
    ? { acknowledgedBefore, location, seconds, folder }
    : { acknowledgedBefore, error: output.trim().split('\n').slice(-5).join(' / '), seconds, folder }
}

/** Restores the drill's backup into a fresh database and checks it; the checks' rows for the soak's table. */
export async function restoreDrill(
  backup: DrillBackup,
  engine: SoakDatabase['engine'],
  runTag: string,
  installedApps: readonly string[],
): Promise<Check[]> {
  const checks: Check[] = [
    {
      name: 'drill: npm run db:backup while serving',
      expected: 'a backup',
      found: backup.location ? `${backup.seconds.toFixed(1)} s` : `failed: ${backup.error}`.slice(0, 300),
      ok: Boolean(backup.location),
    },
  ]
  if (!backup.location) return checks
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-soak-restored-'))
  const postgres =
    engine === 'PostgreSQL'
      ? await createThrowawayPostgresDatabase(process.env.DATABASE_URL as string, 'hatch_drill')
      : undefined
  const target: SoakDatabase = {
    engine,
    url: postgres?.url,
    dataDir,
    remove: async () => {
      await postgres?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  try {
    const started = performance.now()
    const restored = await runScript('scripts/db-restore.ts', [backup.location], environmentFor(target))
    const matched = /Checked: (.+) match the manifest/.exec(restored.output)?.[1]
    checks.push({
      name: 'drill: npm run db:restore into a fresh database',
      expected: 'counts and totals = manifest',
      found:
        restored.code === 0
          ? `${matched ?? 'restored'} (${((performance.now() - started) / 1000).toFixed(1)} s)`
          : `failed: ${restored.output.trim().split('\n').slice(-3).join(' / ')}`.slice(0, 300),
      ok: restored.code === 0 && matched !== undefined,
    })
    if (restored.code !== 0) return checks
    const restoredChecks = await verifyDatabase(target, runTag, backup.acknowledgedBefore, installedApps, {
      snapshot: true,
    })
    checks.push(...restoredChecks.map((check) => ({ ...check, name: `drill: ${check.name}` })))
    return checks
  } finally {
    await target.remove()
    rmSync(backup.folder, { recursive: true, force: true })
  }
}
