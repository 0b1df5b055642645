import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#/server/db/client'
import { siteSettingChanges } from '#/server/db/schema'
import { type AppServer, readConfiguration, setRepositoryLink, signUp, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'

const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-fault-kill-'))
const servers: AppServer[] = []

afterAll(async () => {
  for (const server of servers) await server.stop('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

/** The embedded database, in a folder the two servers share. */
async function start(port: number): Promise<AppServer> {
  const server = await startAppServer({ port, env: { DATA_DIR: dataDir } })
  servers.push(server)
  return server
}

describe('the embedded database when the server is killed in the middle of writes', () => {
  it('starts again, and every write acknowledged before the kill is there', async () => {
    const first = await start(testPorts.embeddedKilledFirst)
    // The install's first account is its app admin, whose Configuration changes are the writes: one row each.
    const admin = await signUp(first.url, 'operator@example.com')
    const settings = await readConfiguration(first.url, admin)
    const acknowledged: string[] = []
    let sent = 0
    let killed = false
    const worker = async () => {
      while (!killed) {
        const link = `https://example.com/kill-${++sent}`
        try {
          if ((await setRepositoryLink(first.url, admin, settings, link)).status === 200) acknowledged.push(link)
        } catch {
          // The connection died with the server: this write was never acknowledged.
        }
      }
    }
    const workers = Array.from({ length: 6 }, worker)
    // Kill once a good number of writes went through, with more in flight.
    while (acknowledged.length < 60 && sent < 3000) await new Promise((resolve) => setTimeout(resolve, 20))
    first.process.kill('SIGKILL')
    killed = true
    await Promise.all(workers)
    await first.exited
    expect(acknowledged.length, first.output()).toBeGreaterThanOrEqual(60)

    const second = await start(testPorts.embeddedKilledSecond)
    const health = await fetch(`${second.url}/api/health`)
    expect(health.status, second.output()).toBe(200)
    const afterRestart = await setRepositoryLink(second.url, admin, settings, 'https://example.com/after-restart')
    expect(afterRestart.status, afterRestart.body).toBe(200)
    expect(await second.stop('SIGTERM')).toBe(0)

    const reopened = openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'pglite') })
    try {
      const stored = new Set(
        (await reopened.db.select({ link: siteSettingChanges.newValue }).from(siteSettingChanges)).map(
          (row) => JSON.parse(row.link) as unknown,
        ),
      )
      const lost = acknowledged.filter((link) => !stored.has(link))
      expect(lost, 'acknowledged writes missing after the kill').toEqual([])
      expect(stored.has('https://example.com/after-restart')).toBe(true)
    } finally {
      await reopened.close()
    }
  }, 120_000)
})
