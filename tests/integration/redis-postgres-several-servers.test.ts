// Three app servers on one PostgreSQL and one Redis, behind nginx started with deploy/nginx.conf (round robin, no
// sticky sessions), as docs/deployment describes (issue 28). Runs where REDIS_URL and DATABASE_URL name servers
// (vitest.config.ts), as .ci/run does, and needs Debian's nginx (`nginx-light`).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { and, count, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseConnection, openDatabase } from '#/server/db/client'
import { apiKeys, siteSettings, users } from '#/server/db/schema'
import { readSiteSettings } from '#/server/settings'
import { type AppServer, startAppServer } from '../support/app-server'
import { type FakeOpenAi, fakeModelId, startFakeOpenAi } from '../support/fake-openai'
import { type Nginx, shippedNginxSite, startNginx } from '../support/nginx'
import { testPorts } from '../support/ports'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'

const proxyPort = testPorts.severalServersProxy
const serverPorts: number[] = [...testPorts.severalServers]
const redisProxyPort = testPorts.severalServersRedisProxy
const appUrl = `http://localhost:${proxyPort}`
const password = 'correct-horse-9-battery'

class CookieJar {
  readonly cookies = new Map<string, string>()
  take(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? ''
      const name = pair.slice(0, pair.indexOf('='))
      const value = pair.slice(pair.indexOf('=') + 1)
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

describe('three app servers behind nginx on PostgreSQL and Redis', { timeout: 600_000 }, () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'hatch-three-'))
  const servers: (AppServer | undefined)[] = []
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  let nginx: Nginx
  let databaseUrl = ''
  let firstServerStartedAt = 0
  let connection: DatabaseConnection
  let redis: TcpProxy
  let fakeAi: FakeOpenAi

  const serverEnv = () => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${redisProxyPort}`,
    BETTER_AUTH_SECRET: 'a-secret-every-server-shares-0123456789',
    APP_URL: appUrl,
    TRUST_PROXY: 'loopback',
    WEB_CONCURRENCY: '1',
    SESSION_CACHE_SECONDS: '3',
    AI_BASE_URL: fakeAi.url,
    AI_MODEL: fakeModelId,
    DATA_DIR: folder,
  })
  const startServer = async (index: number) => {
    servers[index] = await startAppServer({ port: serverPorts[index] ?? 0, env: serverEnv() })
  }

  /** A request through nginx, as a browser on the public URL sends it. */
  const viaProxy = (pathname: string, init: RequestInit & { jar?: CookieJar } = {}) => {
    const headers = new Headers(init.headers)
    headers.set('origin', appUrl)
    if (init.jar) headers.set('cookie', init.jar.header())
    return fetch(`${appUrl}${pathname}`, { ...init, headers }).then((response) => init.jar?.take(response) ?? response)
  }
  const postJson = (pathname: string, body: unknown, jar?: CookieJar, headers: Record<string, string> = {}) =>
    viaProxy(pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      jar,
    })
  const trpcMutation = (procedure: string, input: unknown, jar: CookieJar) =>
    postJson(`/api/trpc/${procedure}`, { json: input }, jar)
  const trpcQuery = (procedure: string, input: unknown, jar: CookieJar) =>
    viaProxy(`/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { jar })
  let visitor = 0
  /** Each sign-up from an address of its own (nginx passes it on), so the per-address sign-up limit stays out of it. */
  const signUp = async (name: string, email: string) => {
    const jar = new CookieJar()
    visitor++
    const answer = await postJson('/api/auth/sign-up/email', { name, email, password }, jar, {
      'x-forwarded-for': `198.51.100.${visitor}`,
    })
    expect(answer.status, `${email} signs up`).toBe(200)
    return jar
  }
  /** Signs the app admin (the first account) in, in a jar of its own. */
  const signInAsAdmin = async () => {
    const admin = new CookieJar()
    expect(
      (await postJson('/api/auth/sign-in/email', { email: 'ada.admin@example.com', password }, admin)).status,
    ).toBe(200)
    return admin
  }
  /** An account an app admin creates (users.create): a write of the core, with a password so that no email is sent. */
  const newAccount = (name: string, email: string) => ({ name, email, role: 'user', password })
  /**
   * An API key of the jar's person that has expired (the plugin refuses an expiry under a day, so it is moved into the
   * past directly): what `apiKeys.deleteExpired`, a change any signed-in person may make, deletes.
   */
  const expiredKeyOf = async (jar: CookieJar, name: string) => {
    const created = await postJson('/api/auth/api-key/create', { name }, jar)
    expect(created.status, await created.clone().text()).toBe(200)
    const { id } = (await created.json()) as { id: string }
    await connection.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 24 * 60 * 60 * 1000) })
      .where(eq(apiKeys.id, id))
    return id
  }
  /** How many requests for `pathname` each server's log shows. */
  const requestsSeenBy = (pathname: string) =>
    servers.map(
      (server) => (server?.output() ?? '').split('\n').filter((line) => line.includes(`"path":"${pathname}"`)).length,
    )

  beforeAll(async () => {
    const database = await createThrowawayPostgresDatabase(process.env.DATABASE_URL ?? '', 'hatch_three')
    cleanups.push(() => database.drop())
    databaseUrl = database.url
    const redisUrl = new URL(process.env.REDIS_URL ?? '')
    redis = await startTcpProxy({
      port: redisProxyPort,
      target: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379) },
    })
    cleanups.push(() => redis.close())
    fakeAi = await startFakeOpenAi()
    cleanups.push(() => fakeAi.close())
    // The first server applies the migrations; the others then start together.
    firstServerStartedAt = Date.now()
    await startServer(0)
    await Promise.all([startServer(1), startServer(2)])
    nginx = await startNginx({
      folder,
      site: shippedNginxSite({ listenPort: proxyPort, serverPorts }),
      listenPort: proxyPort,
      readyPath: '/api/health',
    })
    cleanups.push(() => nginx.stop())
    connection = openDatabase({ engine: 'postgres', url: databaseUrl })
    cleanups.push(() => connection.close())
  }, 300_000)

  afterAll(async () => {
    await Promise.all(servers.map((server) => server?.stop()))
    for (const cleanup of cleanups.reverse()) await cleanup()
    rmSync(folder, { recursive: true, force: true })
  })

  it('signs in through one server and works through all of them', async () => {
    await signUp('Ada Admin', 'ada.admin@example.com') // the first account is the app admin
    const jar = await signUp('Sam Shared', 'sam.shared@example.com')
    const before = requestsSeenBy('/api/trpc/account.me')
    for (let request = 0; request < 9; request++) {
      const me = await trpcQuery('account.me', undefined, jar)
      expect(me.status).toBe(200)
      expect(me.headers.get('x-request-id'), 'nginx’s request id comes back').toMatch(/^[0-9a-f]{32}$/)
    }
    const after = requestsSeenBy('/api/trpc/account.me')
    expect(after.map((seen, index) => seen - (before[index] ?? 0))).toEqual([3, 3, 3])
  })

  it('serves a settings change made on one server from all of them at once, cached pages included', async () => {
    const admin = new CookieJar()
    const signedIn = await postJson('/api/auth/sign-in/email', { email: 'ada.admin@example.com', password }, admin)
    expect(signedIn.status).toBe(200)
    // Every server has the landing page in its cache.
    for (let request = 0; request < 6; request++) {
      expect(await (await viaProxy('/en/')).text()).toContain('Hatch')
    }
    const { updatedAt: _updatedAt, ...settings } = await readSiteSettings(connection.db)
    const changed = await trpcMutation('configuration.update', { ...settings, productName: 'Trio Works' }, admin)
    expect(changed.status, await changed.clone().text()).toBe(200)
    for (let request = 0; request < 6; request++) {
      expect(await (await viaProxy('/en/')).text(), `landing page, request ${request}`).toContain('Trio Works')
    }
    const [row] = await connection.db.select({ productName: siteSettings.productName }).from(siteSettings)
    expect(row?.productName).toBe('Trio Works')
  })

  it('refuses changes on every server at once after "sign out everywhere", and reads once the session copy lapses', async () => {
    const phone = await signUp('Vic Everywhere', 'vic.everywhere@example.com')
    const laptop = new CookieJar()
    expect(
      (await postJson('/api/auth/sign-in/email', { email: 'vic.everywhere@example.com', password }, laptop)).status,
    ).toBe(200)
    await expiredKeyOf(laptop, 'Before sign-out')
    const before = await trpcMutation('apiKeys.deleteExpired', undefined, laptop)
    expect(before.status).toBe(200)
    expect(await before.json(), 'the laptop’s change is made').toMatchObject({
      result: { data: { json: { deleted: 1 } } },
    })
    const kept = await expiredKeyOf(laptop, 'After sign-out')
    expect((await postJson('/api/auth/revoke-sessions', {}, phone)).status).toBe(200)
    for (let request = 0; request < 3; request++) {
      const refused = await trpcMutation('apiKeys.deleteExpired', undefined, laptop)
      expect(refused.status, 'each server refuses the change').toBe(401)
    }
    await new Promise((resolve) => setTimeout(resolve, 3500)) // SESSION_CACHE_SECONDS
    for (let request = 0; request < 3; request++) {
      expect((await trpcQuery('organizations.members', { limit: 5 }, laptop)).status, 'and the reads').toBe(401)
    }
    const left = await connection.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, kept))
    expect(left, 'the refused change deleted nothing').toEqual([{ id: kept }])
  })

  it('refuses a banned user’s changes on every server at once', async () => {
    const admin = await signInAsAdmin()
    const jar = await signUp('Bo Banned', 'bo.banned@example.com')
    await expiredKeyOf(jar, 'Before the ban')
    const before = await trpcMutation('apiKeys.deleteExpired', undefined, jar)
    expect(before.status).toBe(200)
    expect(await before.json(), 'his change is made').toMatchObject({ result: { data: { json: { deleted: 1 } } } })
    const kept = await expiredKeyOf(jar, 'After the ban')
    const [bo] = await connection.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'bo.banned@example.com'))
    const banned = await trpcMutation(
      'users.ban',
      { userId: bo?.id, reason: 'Testing bans across servers', duration: '1d' },
      admin,
    )
    expect(banned.status, await banned.clone().text()).toBe(200)
    for (let request = 0; request < 3; request++) {
      const refused = await trpcMutation('apiKeys.deleteExpired', undefined, jar)
      expect(refused.status, 'each server refuses the change').toBe(401)
    }
    const left = await connection.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, kept))
    expect(left, 'the refused change deleted nothing').toEqual([{ id: kept }])
  })

  it('counts sign-in attempts across the servers: the 11th in a minute is refused', async () => {
    const statuses: number[] = []
    for (let attempt = 0; attempt < 11; attempt++) {
      // A different account each time: failures per account have a limit of their own (sign-in-throttle.test.ts).
      const answer = await postJson(
        '/api/auth/sign-in/email',
        { email: `nobody.${attempt}@example.com`, password: 'wrong-password-1' },
        undefined,
        // One client address for these attempts alone (nginx passes it on; the servers trust loopback proxies).
        { 'x-forwarded-for': '203.0.113.77' },
      )
      statuses.push(answer.status)
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429])
  })

  it('passes a streamed answer (Ask the docs) through nginx token by token', async () => {
    fakeAi.script({
      match: 'count slowly',
      turns: [{ text: 'one two three four five six', chunkDelayMs: 300 }],
    })
    const started = Date.now()
    const answer = await postJson('/api/ask-docs', { question: 'How do I count slowly?', locale: 'en' })
    expect(answer.status).toBe(200)
    const reader = answer.body?.getReader()
    const decoder = new TextDecoder()
    const arrivals: { at: number; text: string }[] = []
    for (;;) {
      const { done, value } = (await reader?.read()) ?? { done: true, value: undefined }
      if (done) break
      arrivals.push({ at: Date.now() - started, text: decoder.decode(value) })
    }
    const deltas = arrivals.filter((arrival) => arrival.text.includes('text-delta'))
    expect(deltas.length, 'several pieces arrived, not one buffered answer').toBeGreaterThanOrEqual(4)
    const first = deltas[0]?.at ?? 0
    const last = deltas.at(-1)?.at ?? 0
    expect(last - first, 'the pieces arrived over the time they were written').toBeGreaterThan(900)
  })

  it('gathers what every server received into one database', async () => {
    const before = requestsSeenBy('/api/auth/sign-up/email')
    for (let person = 0; person < 9; person++) await signUp(`Spread ${person}`, `spread.${person}@example.com`)
    const after = requestsSeenBy('/api/auth/sign-up/email')
    expect(
      after.map((seen, index) => seen - (before[index] ?? 0)),
      'each server took three',
    ).toEqual([3, 3, 3])
    const admin = await signInAsAdmin()
    const answer = await trpcQuery('users.count', { q: 'spread.' }, admin)
    const body = (await answer.json()) as { result?: { data: { json: number } } }
    expect(body.result?.data.json, 'the nine accounts, whichever server made them').toBe(9)
  })

  it('ran each scheduled job once for three servers', async () => {
    const result = await connection.db.execute(
      "select name, count(*)::int as runs from pgboss.job where name in ('maintenance', 'email-sweep') group by name",
    )
    const runs = Object.fromEntries(
      (result as unknown as { rows: { name: string; runs: number }[] }).rows.map((row) => [row.name, row.runs]),
    )
    // Once as the servers start, whichever starts first, and once more per tick of the schedule since then (every five
    // minutes, and every hour): a slow run may see a tick. Three servers each running them would make three. pg-boss
    // sends a tick's job while it is due, for a minute after it, so a tick up to a minute before the start counts too
    // (found when the servers started seconds after 16:25:00).
    const dueWindowMs = 60_000
    const ticksSinceStart = (periodMs: number) =>
      Math.floor(Date.now() / periodMs) - Math.floor((firstServerStartedAt - dueWindowMs) / periodMs)
    // (A tick's job is sent within half a minute of it, so one just passed may not be there yet.)
    const periods = { maintenance: 60 * 60_000, 'email-sweep': 5 * 60_000 }
    for (const [name, periodMs] of Object.entries(periods)) {
      expect(runs[name], name).toBeGreaterThanOrEqual(1)
      expect(runs[name], name).toBeLessThanOrEqual(1 + ticksSinceStart(periodMs))
    }
  })

  it('keeps answering while each server in turn restarts: no failed request, no lost or doubled write', async () => {
    const admin = await signInAsAdmin()
    let running = true
    let written = 0
    const failures: string[] = []
    const load = async (worker: number) => {
      for (let request = 0; running; request++) {
        try {
          if (request % 2 === 0) {
            const page = await viaProxy('/en/')
            if (page.status !== 200) failures.push(`GET /en/ ${page.status}`)
            await page.arrayBuffer()
          } else {
            const email = `rolling.${worker}-${request}@example.com`
            const created = await trpcMutation('users.create', newAccount(`Rolling ${worker}-${request}`, email), admin)
            if (created.status === 200) written++
            else failures.push(`users.create ${created.status} ${await created.text()}`)
          }
        } catch (error) {
          failures.push(`${request}: ${(error as Error).message}`)
        }
      }
    }
    const workers = [0, 1, 2, 3].map(load)
    for (let index = 0; index < servers.length; index++) {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(await servers[index]?.stop('SIGTERM'), `server ${index} stopped cleanly`).toBe(0)
      await startServer(index)
    }
    await new Promise((resolve) => setTimeout(resolve, 1500))
    running = false
    await Promise.all(workers)
    expect(failures.slice(0, 5), `${failures.length} failed requests; nginx: ${nginx.errors()}`).toEqual([])
    expect(written, 'the load kept writing').toBeGreaterThan(20)
    const [stored] = await connection.db
      .select({ accounts: count() })
      .from(users)
      .where(and(like(users.name, 'Rolling %'), like(users.email, 'rolling.%@example.com')))
    expect(stored?.accounts, 'every answered write is stored once').toBe(written)
  })

  it('keeps serving when Redis stops, says so in /api/health, and recovers when it is back', async () => {
    const jar = await signUp('Rae Redisless', 'rae.redisless@example.com')
    const admin = await signInAsAdmin()
    redis.setMode('refuse')
    redis.cutAll()
    try {
      for (let request = 0; request < 3; request++) {
        const health = await viaProxy('/api/health')
        expect(health.status, 'degraded is still up').toBe(200)
        expect(await health.json()).toMatchObject({
          status: 'degraded',
          reason: expect.stringContaining('redis unreachable'),
        })
        expect((await viaProxy('/en/')).status).toBe(200)
        expect((await trpcQuery('account.me', undefined, jar)).status).toBe(200)
        const created = await trpcMutation(
          'users.create',
          newAccount(`Without Redis ${request}`, `without.redis.${request}@example.com`),
          admin,
        )
        expect(created.status, await created.clone().text()).toBe(200)
      }
      const signIn = await postJson('/api/auth/sign-in/email', { email: 'rae.redisless@example.com', password })
      expect(signIn.status, 'sign-in works without Redis').toBe(200)
    } finally {
      redis.setMode('forward')
    }
    for (let waited = 0; waited < 20_000; waited += 250) {
      const health = (await (await viaProxy('/api/health')).json()) as { status: string }
      if (health.status === 'ok') break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    for (let request = 0; request < 3; request++) {
      expect(await (await viaProxy('/api/health')).json(), 'each server is back').toMatchObject({ status: 'ok' })
    }
  })
})
