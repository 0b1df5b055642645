import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#/server/db/client'
import { sqlRows } from '#/server/db/raw-sql'
import { type AppServer, signUp, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'

// Only where DATABASE_URL names a PostgreSQL server (vitest.config.ts leaves this file out elsewhere).
const adminUrl = process.env.DATABASE_URL ?? ''

/** Every answer during a fault comes within this bound (the app promises 5 s) or the request fails the test. */
const answerBoundMs = 5_000

/**
 * fetch keeps connections alive between requests; the server may close one as idle just as it is reused (a reset
 * that says nothing about the outage, seen in CI), and a client sends again on a fresh connection, as this does once.
 */
async function sendOnceMore(send: () => Promise<Response>): Promise<Response> {
  return send().catch((error: unknown) => {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error
    return send()
  })
}

/** A GET that must answer within the bound; the body is read so that a page's stream is finished too. */
async function get(url: string, headers: Record<string, string> = {}) {
  const response = await sendOnceMore(() => fetch(url, { headers, signal: AbortSignal.timeout(answerBoundMs) }))
  return { status: response.status, headers: response.headers, body: await response.text() }
}

/** Waits until the check passes, a few seconds at most (service must come back by itself). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 60; attempt++) {
    if (await check().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${what} did not happen within 15 s`)
}

function expectUnavailable(answer: { status: number; headers: Headers; body: string }, what: string) {
  expect(answer.status, `${what}: ${answer.body.slice(0, 300)}`).toBe(503)
  expect(answer.headers.get('retry-after'), what).toMatch(/^\d+$/)
  expect(answer.body, what).not.toMatch(/Failed query|select |ECONNREFUSED|at async|node_modules|127\.0\.0\.1/i)
}

describe('PostgreSQL connections cut and PostgreSQL unreachable', () => {
  let database: Awaited<ReturnType<typeof createThrowawayPostgresDatabase>>
  let proxy: TcpProxy
  let server: AppServer
  let cookie: string
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-fault-pg-'))

  beforeAll(async () => {
    database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_faults')
    const target = new URL(database.url)
    proxy = await startTcpProxy({
      port: testPorts.postgresAwayProxy,
      target: { host: target.hostname, port: Number(target.port || 5432) },
    })
    const throughProxy = new URL(database.url)
    throughProxy.hostname = '127.0.0.1'
    throughProxy.port = String(proxy.port)
    server = await startAppServer({
      port: testPorts.postgresAwayServer,
      // Sessions read from the database every time (no signed copy, no Redis), so that every request below needs it.
      env: { DATABASE_URL: throughProxy.href, DATA_DIR: dataDir, SESSION_CACHE_SECONDS: '0' },
    })
    cookie = await signUp(server.url, 'faults@example.com')
  }, 180_000)

  afterAll(async () => {
    await server?.stop('SIGKILL')
    await proxy?.close()
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const requests = () => ({
    trpc: () => get(`${server.url}/api/trpc/account.me`, { cookie }),
    page: () => get(`${server.url}/en/console`, { cookie, accept: 'text/html' }),
    session: () => get(`${server.url}/api/auth/get-session`, { cookie }),
    health: () => get(`${server.url}/api/health`),
  })

  it('serves on when its connections are terminated (pg_terminate_backend), never answering 500', async () => {
    expect((await requests().trpc()).status).toBe(200)
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    try {
      const name = new URL(database.url).pathname.slice(1)
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) as cut from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      )
      expect(rows.length, 'the app held connections to its database').toBeGreaterThan(0)
    } finally {
      await admin.end()
    }
    for (const [what, request] of Object.entries(requests())) {
      const answer = await request()
      if (answer.status !== 200) expectUnavailable(answer, `${what} right after the cut`)
    }
    await eventually(async () => (await requests().trpc()).status === 200, 'service after the cut')
    expect(server.process.exitCode).toBeNull()
  })

  it('answers 503 with Retry-After while PostgreSQL refuses connections, and recovers by itself', async () => {
    proxy.setMode('refuse')
    proxy.cutAll()
    for (const [what, request] of Object.entries(requests())) expectUnavailable(await request(), what)
    const trpc = JSON.parse((await requests().trpc()).body) as { error: { json: { data: { appCode?: string } } } }
    expect(trpc.error.json.data.appCode, 'the code the client translates').toBe('SERVICE_UNAVAILABLE')
    const page = await requests().page()
    expect(page.body).toContain('Something went wrong')
    // Better Auth's own endpoints (through its router, not the session shortcut) answer the same way.
    const signInOnce = () =>
      fetch(`${server.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ email: 'faults@example.com', password: 'correct-horse-9' }),
        signal: AbortSignal.timeout(answerBoundMs),
      })
    const signIn = await sendOnceMore(signInOnce)
    expectUnavailable({ status: signIn.status, headers: signIn.headers, body: await signIn.text() }, 'sign-in')

    proxy.setMode('forward')
    await eventually(async () => (await requests().health()).status === 200, 'health after the outage')
    for (const [what, request] of Object.entries(requests())) expect((await request()).status, what).toBe(200)
  })

  it('answers 503 within the bound while PostgreSQL accepts connections and never answers', async () => {
    proxy.setMode('stall')
    proxy.cutAll()
    for (const [what, request] of Object.entries(requests())) expectUnavailable(await request(), what)

    proxy.setMode('forward')
    proxy.cutAll()
    await eventually(async () => (await requests().trpc()).status === 200, 'service after the stall')
    expect(server.process.exitCode).toBeNull()
  })
})

describe('a PostgreSQL connection cut while it is checked out', () => {
  it('fails that transaction only; the process lives on and the next query gets a fresh connection', async () => {
    const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_faults')
    const connection = openDatabase({ engine: 'postgres', url: database.url })
    try {
      const transaction = connection.db.transaction(async (tx) => {
        const [backend] = await sqlRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`)
        const admin = new pg.Client({ connectionString: adminUrl })
        await admin.connect()
        await admin.query('select pg_terminate_backend($1)', [backend?.pid])
        await admin.end()
        // Between two statements, the client is the transaction's, not the pool's: the connection ends under it.
        await new Promise((resolve) => setTimeout(resolve, 200))
        await tx.execute(sql`select 1`)
      })
      // Before the fix, the client's 'error' event had no listener and ended the test process here.
      await expect(transaction).rejects.toThrow()
      expect(await sqlRows(connection.db, sql`select 1 as one`)).toEqual([{ one: 1 }])
    } finally {
      await connection.close()
      await database.drop()
    }
  })
})

describe('PostgreSQL away while the job queue starts', () => {
  it('serves on, tries the queue again, and starts it once PostgreSQL is back', async () => {
    const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_faults')
    const target = new URL(database.url)
    const proxy = await startTcpProxy({
      port: testPorts.queueStartProxy,
      target: { host: target.hostname, port: Number(target.port || 5432) },
    })
    const throughProxy = new URL(database.url)
    throughProxy.hostname = '127.0.0.1'
    throughProxy.port = String(proxy.port)
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-fault-pg-queue-'))
    const server = await startAppServer({
      port: testPorts.queueStartServer,
      env: { DATABASE_URL: throughProxy.href, DATA_DIR: dataDir, SESSION_CACHE_SECONDS: '0' },
    })
    try {
      // The queue starts a second after listening when no request comes: PostgreSQL goes away before that.
      proxy.setMode('refuse')
      proxy.cutAll()
      await eventually(
        async () => server.output().includes('the job queue did not start; trying again'),
        'a failed start of the queue',
      )
      expectUnavailable(await get(`${server.url}/api/health`), 'health while PostgreSQL is away')
      expect(server.process.exitCode, 'the server serves on').toBeNull()

      proxy.setMode('forward')
      await eventually(async () => server.output().includes('the job queue has started'), 'the queue started')
      expect((await get(`${server.url}/api/health`)).status).toBe(200)
      expect(server.process.exitCode).toBeNull()
    } finally {
      await server.stop('SIGKILL')
      await proxy.close()
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
