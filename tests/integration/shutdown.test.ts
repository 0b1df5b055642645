// A server stops within its shutdown timeout whatever it has answered: addresses it cannot read (the framework answers
// some of those at once, not with a promise, and such an answer must not stay tracked and keep a stopping server
// waiting for ever), chunked bodies past the limit; on each engine, and with several processes, one of them stuck.
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closingAllowanceMs, launcherAllowanceMs } from '../../scripts/shutdown-deadline'
import { type AppServer, childrenOf, signUp, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'
import { engines } from './test-databases'

const shutdownTimeoutMs = 2_000

/** Paths whose percent-encoding is not UTF-8, or that hold a NUL in a route parameter, across the route families. */
const unreadablePaths = [
  '/%C0%80',
  '/api/trpc/%C0%80',
  '/en/docs/%C0%80',
  '/api/files/%C0%80',
  '/en/pay/x%ED%A0%80',
  '/api/auth/get-session?x=%00',
  '/en/accept-invitation/a%00b',
  '/en/pay/a%00b',
  '/en/docs?q=%zz',
]

/** Sends `bytes` of body with `Transfer-Encoding: chunked` (no Content-Length), as a streaming client would. */
function postChunked(url: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      let body = ''
      response.on('data', (chunk) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    sent.on('error', reject)
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let written = 0
    const write = () => {
      while (written < bytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, bytes - written))
        written += part.length
        if (!sent.write(part)) return void sent.once('drain', write)
      }
      sent.end()
    }
    write()
  })
}

/** How long after SIGTERM the process exited; it is killed, and the test fails, if still running after `limitMs`. */
async function stopWithin(server: AppServer, limitMs: number): Promise<{ code: number | null; ms: number }> {
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

const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function serverOn(engine: string, port: number, env: Record<string, string> = {}): Promise<AppServer> {
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

describe.each(engines)('a server on %s', { timeout: 120_000 }, (engine) => {
  it('answers addresses it cannot read with 400, chunked bodies past 1 MiB with 413, then stops in time', async () => {
    const server = await serverOn(
      engine,
      engine === 'postgres' ? testPorts.shutdownPostgres : testPorts.shutdownEmbedded,
    )
    const cookie = await signUp(server.url, `shutdown-${engine}@example.com`)
    const signedIn = { cookie, origin: server.url }
    for (const unreadable of unreadablePaths) {
      for (const headers of [{}, signedIn]) {
        const response = await fetch(`${server.url}${unreadable}`, { headers, redirect: 'manual' })
        expect(response.status, `GET ${unreadable}`).toBe(400)
        expect(await response.text(), `GET ${unreadable}`).toContain('"code":"INVALID_CHARACTERS"')
      }
    }

    // An upload to a path the server cannot read is refused before routing, as any other request is.
    const upload = await fetch(`${server.url}/api/uploads/a%00b`, {
      method: 'POST',
      headers: { ...signedIn, 'content-type': 'image/png' },
      body: new Uint8Array(16),
    })
    expect(upload.status, 'POST /api/uploads/a%00b').toBe(400)

    // HEAD of the session check answers as GET does, without the body.
    const get = await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })
    const head = await fetch(`${server.url}/api/auth/get-session`, { method: 'HEAD', headers: { cookie } })
    expect([head.status, head.headers.get('content-type')]).toEqual([get.status, get.headers.get('content-type')])
    expect(await head.text()).toBe('')

    // A chunked sign-in past 1 MiB is refused as a declared one is; one under it reaches Better Auth, which cannot read
    // it as JSON.
    const signIn = `${server.url}/api/auth/sign-in/email`
    expect((await postChunked(signIn, 1024 * 1024 + 64 * 1024)).status, 'a chunked sign-in past 1 MiB').toBe(413)
    expect((await postChunked(signIn, 1200 * 1024)).status).toBe(413)
    const small = await postChunked(signIn, 16 * 1024)
    expect([small.status, small.body], 'a small chunked sign-in (not JSON)').toEqual([
      400,
      expect.stringContaining('Invalid JSON'),
    ])

    const { code, ms } = await stopWithin(server, shutdownTimeoutMs + closingAllowanceMs)
    expect(code, server.output().slice(-2000)).toBe(0)
    expect(server.output()).toContain('Stopped.')
    expect(ms, 'ms from SIGTERM to exit').toBeLessThan(shutdownTimeoutMs + closingAllowanceMs)
  })
})

describe.skipIf(!process.env.DATABASE_URL)('several processes (WEB_CONCURRENCY=2) on PostgreSQL', () => {
  it('stop in time after such requests, the launcher ending a process that is stuck', {
    timeout: 120_000,
  }, async () => {
    const server = await serverOn('postgres', testPorts.shutdownSeveral, { WEB_CONCURRENCY: '2' })
    const deadline = Date.now() + 60_000
    while (server.output().split('is listening').length - 1 < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const workers = childrenOf(server.process.pid ?? 0)
    expect(workers).toHaveLength(2)
    // Each connection goes to one process or the other: enough of them reach both.
    const answeredBy = new Set<number>()
    for (let attempt = 0; attempt < 60 && answeredBy.size < 2; attempt++) {
      const response = await fetch(`${server.url}/%C0%80`, { headers: { connection: 'close' } })
      expect(response.status).toBe(400)
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.includes('"path":"/%C0%80"'))
      for (const line of lines) answeredBy.add((JSON.parse(line) as { pid: number }).pid)
    }
    expect([...answeredBy].sort(), 'both processes answered such a request').toEqual([...workers].sort())

    // One process stops responding to everything, signals included; the other must stop on its own.
    const [stuck = 0, healthy = 0] = workers
    process.kill(stuck, 'SIGSTOP')
    cleanups.push(() => {
      for (const pid of [stuck, healthy]) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // already gone
        }
      }
    })
    const bound = shutdownTimeoutMs + closingAllowanceMs + launcherAllowanceMs
    const { code } = await stopWithin(server, bound + 5_000)
    expect(code, 'the launcher says one process did not stop cleanly').toBe(1)
    const stopped = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"Stopped."'))
    expect(stopped.map((line) => (JSON.parse(line) as { pid: number }).pid)).toEqual([healthy])
    expect(server.output()).toContain('still running')
    const isRunning = (pid: number) => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    await expect.poll(() => isRunning(stuck), { timeout: 5_000 }).toBe(false)
  })
})
