import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#/server/db/client'
import { siteSettings } from '#/server/db/schema'
import { testPorts } from '../support/ports'
import { startProductionServer } from '../support/production-server'

const port = testPorts.productionServer
const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-shutdown-'))
let server: ChildProcess | undefined

afterAll(() => {
  server?.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

async function startServer(extraEnv: Record<string, string> = {}) {
  const started = await startProductionServer(port, dataDir, extraEnv)
  server = started.process
  return started
}

describe('start-up of the production server', () => {
  it('refuses to start on a bad environment variable, naming it', async () => {
    const child = spawn(process.execPath, ['scripts/start.ts'], {
      env: { ...process.env, PORT: 'eighty', DATA_DIR: dataDir, DATABASE_URL: 'mysql://db/app' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(output).toMatch(/PORT: must be a number/)
    expect(output).toMatch(/DATABASE_URL: must be a postgres/)
    expect(output).toContain('The server did not start.')
  }, 180_000)
})

describe('graceful shutdown of the production server', () => {
  it('on SIGTERM finishes the request in flight, refuses new ones, closes the database and exits 0', async () => {
    const { output, exited } = await startServer()
    const inFlight = fetch(`http://localhost:${port}/en/debug/slow`)
    await new Promise((resolve) => setTimeout(resolve, 400))
    server?.kill('SIGTERM')

    const response = await inFlight
    expect(response.status).toBe(200)
    expect(response.headers.get('connection'), 'no next request on this connection').toBe('close')
    expect(await response.text()).toContain('The route loaded without errors.')
    await expect(fetch(`http://localhost:${port}/api/health`)).rejects.toThrow()
    expect(await exited).toBe(0)
    expect(output()).toContain('Stopped.')

    // A cleanly closed embedded database opens again with its data.
    const reopened = openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'pglite') })
    const [row] = await reopened.db.select().from(siteSettings)
    expect(row?.productName).toBe('Hatch')
    await reopened.close()
  }, 180_000)

  it('lets the work of a request whose client hung up finish before the database closes, and logs it as 499', async () => {
    const { output, exited } = await startServer()
    const leaving = new AbortController()
    const inFlight = fetch(`http://localhost:${port}/en/debug/slow`, { signal: leaving.signal }).catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 400))
    leaving.abort()
    await inFlight
    // The page's loader is still waiting to read the database when the server is told to stop.
    server?.kill('SIGTERM')
    expect(await exited).toBe(0)
    const lines = output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: string; msg: string; path?: string; status?: number })
    expect(lines.filter((line) => line.level === 'error')).toEqual([])
    const slow = lines.find((line) => line.path === '/en/debug/slow') as { status?: number; ms?: number } | undefined
    // Logged as a client that left, once its loader had read the database (1.5 s in), not when the client left.
    expect(slow).toMatchObject({ status: 499 })
    expect(slow?.ms).toBeGreaterThanOrEqual(1500)
  }, 180_000)
})

/** Runs one of the project's commands against `dataDir`'s embedded database, as `npm run` would. */
function runCommand(
  script: string,
  args: string[],
  commandDataDir: string,
): Promise<{ code: number | null; output: string }> {
  const { DATABASE_URL: _ignored, ...env } = process.env
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...env, DATA_DIR: commandDataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })))
}

describe('backups of the embedded database while the server runs', () => {
  it('npm run db:backup asks the running server; npm run db:restore waits for it to stop', async () => {
    const backups = mkdtempSync(path.join(tmpdir(), 'hatch-served-backups-'))
    const restoredDataDir = mkdtempSync(path.join(tmpdir(), 'hatch-served-restore-'))
    try {
      const metricsToken = 'metrics-token-for-the-backup-test'
      const { exited } = await startServer({ METRICS_TOKEN: metricsToken })
      const backup = await runCommand('scripts/db-backup.ts', ['--to', backups], dataDir)
      expect(backup.output).toContain('Backup taken by the running server')
      expect(backup.code).toBe(0)
      // The server recorded it: the age of the latest backup is what monitoring alerts on.
      const metrics = await fetch(`http://localhost:${port}/api/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      })
      const scraped = await metrics.text()
      expect(Number(/^hatch_backup_age_seconds ([\d.e+-]+)$/m.exec(scraped)?.[1])).toBeLessThan(60)
      expect(scraped).toMatch(/^hatch_backup_last_run_failed 0$/m)
      const [name] = readdirSync(backups)
      expect(name).toMatch(/^hatch-backup-\d{8}T\d{9}Z$/)
      const location = path.join(backups, name ?? '')
      const refused = await runCommand('scripts/db-restore.ts', [location], dataDir)
      expect(refused.output).toContain('A server is running on this DATA_DIR: stop it before restoring into it.')
      expect(refused.code).toBe(1)
      server?.kill('SIGTERM')
      expect(await exited).toBe(0)
      const restored = await runCommand('scripts/db-restore.ts', [location], restoredDataDir)
      expect(restored.output).toMatch(/Checked: \d+ tables' row counts and \d+ total\(s\) match the manifest/)
      expect(restored.code).toBe(0)
      const reopened = openDatabase({ engine: 'pglite', dataDir: path.join(restoredDataDir, 'pglite') })
      const [row] = await reopened.db.select().from(siteSettings)
      expect(row?.productName).toBe('Hatch')
      await reopened.close()
    } finally {
      rmSync(backups, { recursive: true, force: true })
      rmSync(restoredDataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
