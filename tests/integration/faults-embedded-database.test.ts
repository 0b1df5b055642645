import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import superjson from 'superjson'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#/server/db/client'
import { newsletterSubscribers } from '#/server/db/schema'
import { type AppServer, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'

const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-fault-kill-'))
const servers: AppServer[] = []

afterAll(async () => {
  for (const server of servers) await server.stop('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

/** The embedded database, TRUST_PROXY so that each write can come from its own address (the newsletter's limit). */
async function start(port: number): Promise<AppServer> {
  const server = await startAppServer({ port, env: { DATA_DIR: dataDir, TRUST_PROXY: 'true' } })
  servers.push(server)
  return server
}

/** One newsletter subscription through HTTP, as the landing page sends it; true when the server acknowledged it. */
async function subscribe(baseUrl: string, email: string, n: number): Promise<boolean> {
  const response = await fetch(`${baseUrl}/api/trpc/newsletter.subscribe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: baseUrl,
      'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    },
    body: JSON.stringify(superjson.serialize({ email, locale: 'en' })),
  })
  return response.status === 200
}

describe('the embedded database when the server is killed in the middle of writes', () => {
  it('starts again, and every write acknowledged before the kill is there', async () => {
    const first = await start(testPorts.embeddedKilledFirst)
    const acknowledged: string[] = []
    let sent = 0
    let killed = false
    const worker = async () => {
      while (!killed) {
        const n = ++sent
        const email = `kill-${n}@example.com`
        try {
          if (await subscribe(first.url, email, n)) acknowledged.push(email)
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
    expect(await subscribe(second.url, 'after-restart@example.com', 1_000_000)).toBe(true)
    expect(await second.stop('SIGTERM')).toBe(0)

    const reopened = openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'pglite') })
    try {
      const stored = new Set(
        (await reopened.db.select({ email: newsletterSubscribers.email }).from(newsletterSubscribers)).map(
          (row) => row.email,
        ),
      )
      const lost = acknowledged.filter((email) => !stored.has(email))
      expect(lost, 'acknowledged writes missing after the kill').toEqual([])
      expect(stored.has('after-restart@example.com')).toBe(true)
    } finally {
      await reopened.close()
    }
  }, 120_000)
})
