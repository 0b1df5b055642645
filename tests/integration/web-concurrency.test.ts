import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type AppServer, startAppServer } from '../support/app-server'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'
import { engines } from './test-databases'

/** The processes the launcher started (its children). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => child > 0)
  } catch {
    return []
  }
}

describe.each(engines)('npm start with WEB_CONCURRENCY=2 on %s', { timeout: 600_000 }, (engine) => {
  let server: AppServer | undefined
  const cleanups: (() => Promise<void> | void)[] = []
  afterAll(async () => {
    await server?.stop()
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  it(
    engine === 'postgres'
      ? 'runs two app processes on one port, each answering, and stops them all on SIGTERM'
      : 'runs one process on the embedded database, which only one process can open',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-cluster-'))
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
      let databaseUrl: string | undefined
      if (engine === 'postgres') {
        const database = await createThrowawayPostgresDatabase(process.env.DATABASE_URL ?? '', 'hatch_cluster')
        cleanups.push(() => database.drop())
        databaseUrl = database.url
      }
      server = await startAppServer({
        port: engine === 'postgres' ? 3461 : 3462,
        env: { WEB_CONCURRENCY: '2', DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
      })
      const expected = engine === 'postgres' ? 2 : 1
      // Each process says it listens once it has started.
      const deadline = Date.now() + 120_000
      while (server.output().split('is listening').length - 1 < expected && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      expect(server.output().split('is listening').length - 1).toBe(expected)
      const pid = server.process.pid ?? 0
      expect(childrenOf(pid).length, 'app processes under the launcher').toBe(engine === 'postgres' ? 2 : 0)
      for (let request = 0; request < 20; request++) {
        const health = await fetch(`${server.url}/api/health`)
        expect(health.status).toBe(200)
      }
      expect(await server.stop('SIGTERM')).toBe(0)
      expect(server.output().split('Stopped.').length - 1, 'each process finished and stopped').toBe(expected)
      expect(childrenOf(pid)).toEqual([])
    },
  )
})
