// What the shutdown tests share: a production server on a throwaway database with a short shutdown timeout, and how
// long it takes to stop.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { type AppServer, startAppServer } from '../support/app-server'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'

export const shutdownTimeoutMs = 2_000

/** How long after SIGTERM the process exited; it is killed, and the test fails, if still running after `limitMs`. */
export async function stopWithin(server: AppServer, limitMs: number): Promise<{ code: number | null; ms: number }> {
  const started = Date.now()
  server.process.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), limitMs)
  })
  const code = await Promise.race([server.exited, late])
  clearTimeout(timer)
  if (code === 'late') {
    server.process.kill('SIGKILL')
    throw new Error(`still running ${limitMs} ms after SIGTERM:\n${server.output().slice(-3000)}`)
  }
  return { code, ms: Date.now() - started }
}

export const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

export async function serverOn(engine: string, port: number, env: Record<string, string> = {}): Promise<AppServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-shutdown-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  let databaseUrl: string | undefined
  if (engine === 'postgres') {
    const database = await createThrowawayPostgresDatabase(process.env.DATABASE_URL ?? '', 'hatch_shutdown')
    cleanups.push(() => database.drop())
    databaseUrl = database.url
  }
  const server = await startAppServer({
    port,
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs), ...env },
  })
  cleanups.push(() => void server.process.kill('SIGKILL'))
  return server
}
