import { createTRPCClient, httpBatchLink } from '@trpc/client'
import { eq } from 'drizzle-orm'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { trpcBatchCallsMax } from '#/lib/trpc-batch'
import { createAuth } from '#/server/auth/auth'
import { users } from '#/server/db/schema'
import { handleTrpcRequest } from '#/server/trpc/handler'
import type { AppRouter } from '#/server/trpc/root'
import { authRequest, cookieHeaderOf, testOrigin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

const endpoint = 'http://localhost/api/trpc'

describe.each(coreEngines)('the tRPC API on %s', (engine) => {
  let database: FreshDatabase
  const requests: Request[] = []
  const clientIp = '203.0.113.1'
  /** The session of the install's first account, an app admin (system.status is for app admins). */
  let adminCookie = ''

  /** Sends real HTTP requests (URL, headers, body) through the same handler /api/trpc uses. */
  const fetchThroughHandler = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers)
    if (adminCookie) headers.set('cookie', adminCookie)
    // The browser sends its Origin with every POST.
    if (init?.method === 'POST' && !headers.has('origin')) headers.set('origin', testOrigin)
    const request = Object.assign(new Request(input, { ...init, headers }), { ip: clientIp })
    requests.push(request)
    return handleTrpcRequest(request, database.connection.db)
  }
  const batchClient = () =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: endpoint, transformer: superjson, fetch: fetchThroughHandler })],
    })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    const signUp = await authRequest(createAuth(database.connection.db), '/sign-up/email', {
      body: { name: 'Operator', email: 'operator@example.com', password: 'operate-2026' },
    })
    adminCookie = cookieHeaderOf(signUp)
  })
  afterAll(() => database.dispose())

  /** An account an app admin may create (users.create), with a password so that no email is sent. */
  const newAccount = (name: string) => ({
    name,
    email: `${name}@example.com`,
    role: 'user',
    password: 'long-enough-2026',
  })
  /** The accounts besides the install's first, by address. */
  const accountsBesides = async () =>
    (await database.connection.db.select({ email: users.email }).from(users))
      .map((row) => row.email)
      .filter((email) => email !== 'operator@example.com')

  it('keeps Date, Set, Map and BigInt intact over the wire', async () => {
    const status = await batchClient().system.status.query()
    expect(status.serverTime).toBeInstanceOf(Date)
    expect(status.startedAt).toBeInstanceOf(Date)
    expect(status.database.latestMigrationAt).toBeInstanceOf(Date)
    expect(status.locales).toBeInstanceOf(Set)
    expect([...status.locales]).toEqual(['en', 'zh'])
    expect(status.services).toBeInstanceOf(Map)
    expect(status.services.get('postgres')).toBe(Boolean(process.env.DATABASE_URL))
    expect(typeof status.database.appliedMigrations).toBe('bigint')
    expect(status.database.appliedMigrations).toBeGreaterThan(0n)
  })

  it('batches calls made together into one HTTP request', async () => {
    requests.length = 0
    const client = batchClient()
    const [status, settings] = await Promise.all([client.system.status.query(), client.settings.public.query()])
    expect(requests).toHaveLength(1)
    expect(status.serverTime).toBeInstanceOf(Date)
    expect(settings.productName).toBe('Hatch')
  })

  it('refuses a batch larger than the app’s own client sends, before any call runs, in the caller’s language', async () => {
    const calls = (count: number, procedure: string, separator = ',') => Array(count).fill(procedure).join(separator)
    const refusalOf = async (response: Response) => {
      const body = (await response.json()) as { error: { json: { message: string; data: Record<string, unknown> } } }
      return body.error.json
    }
    const query = await fetchThroughHandler(`${endpoint}/${calls(300, 'settings.public')}?batch=1&input={}`, {
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
    })
    expect(query.status, '300 queries in one request').toBe(400)
    const refusal = await refusalOf(query)
    expect(refusal.data.appCode).toBe('BATCH_TOO_LARGE')
    expect(refusal.data.params).toEqual({ limit: String(trpcBatchCallsMax) })
    expect(refusal.message, 'worded in the language the caller asks for').toContain(`最多 ${trpcBatchCallsMax} 个`)

    const encoded = await fetchThroughHandler(`${endpoint}/${calls(300, 'settings.public', '%2C')}?batch=1&input={}`)
    expect(encoded.status, 'a percent-encoded separator counts the same').toBe(400)

    const inputs = Object.fromEntries(Array.from({ length: 300 }, (_, n) => [n, { json: newAccount(`batch-${n}`) }]))
    const changes = await fetchThroughHandler(`${endpoint}/${calls(300, 'users.create')}?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(inputs),
    })
    expect(changes.status, '300 changes in one request').toBe(400)
    expect((await refusalOf(changes)).data.appCode).toBe('BATCH_TOO_LARGE')
    expect(await accountsBesides(), 'no call of the batch ran').toEqual([])

    const atTheLimit = await fetchThroughHandler(
      `${endpoint}/${calls(trpcBatchCallsMax, 'settings.public')}?batch=1&input={}`,
    )
    expect(atTheLimit.status, 'a batch at the limit runs').toBe(200)

    // The app's batch link splits at the same size, so the app itself never meets the refusal.
    requests.length = 0
    const client = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: endpoint,
          transformer: superjson,
          fetch: fetchThroughHandler,
          maxItems: trpcBatchCallsMax,
        }),
      ],
    })
    const answers = await Promise.all(Array.from({ length: 120 }, () => client.settings.public.query()))
    expect(answers.every((settings) => settings.productName === 'Hatch')).toBe(true)
    expect(requests).toHaveLength(Math.ceil(120 / trpcBatchCallsMax))
  })

  it('answers an unknown procedure with 404 NOT_FOUND naming the path', async () => {
    const response = await fetchThroughHandler(`${endpoint}/nope`)
    expect(response.status).toBe(404)
    const body = (await response.json()) as { error: { json: { message: string; data: { code: string } } } }
    expect(body.error.json.message).toBe('No "query"-procedure on path "nope"')
    expect(body.error.json.data.code).toBe('NOT_FOUND')
    expect(JSON.stringify(body)).not.toContain('    at ') // no stack trace outside development
  })

  it('names a missing mutation as a mutation', async () => {
    const response = await fetchThroughHandler(`${endpoint}/nope.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(response.status).toBe(404)
    const body = (await response.json()) as { error: { json: { message: string } } }
    expect(body.error.json.message).toBe('No "mutation"-procedure on path "nope.create"')
  })

  it('answers bad input with 400 BAD_REQUEST and the field errors, and stores nothing', async () => {
    const response = await fetchThroughHandler(`${endpoint}/users.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { ...newAccount('bad'), email: 'not-an-email', role: 'emperor' } }),
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as {
      error: { json: { data: { code: string; fieldErrors: Record<string, string[]> } } }
    }
    expect(body.error.json.data.code).toBe('BAD_REQUEST')
    expect(body.error.json.data.fieldErrors.email).toEqual(['validation_email_invalid'])
    expect(body.error.json.data.fieldErrors.role).toHaveLength(1)
    expect(await accountsBesides()).toEqual([])
  })

  it('refuses a change sent as a form or as text, or with a cookie from another site or no site, and stores nothing', async () => {
    const create = (headers: Record<string, string>, body: string) =>
      handleTrpcRequest(
        Object.assign(new Request(`${endpoint}/users.create`, { method: 'POST', headers, body }), {
          ip: '203.0.113.30',
        }),
        database.connection.db,
      )
    const json = JSON.stringify({ json: newAccount('csrf') })
    const cases: [string, Record<string, string>, string, number, string][] = [
      [
        'a form',
        { 'content-type': 'application/x-www-form-urlencoded', origin: testOrigin, cookie: adminCookie },
        'json=%7B%7D',
        415,
        'JSON_BODY_REQUIRED',
      ],
      [
        'text',
        { 'content-type': 'text/plain', origin: testOrigin, cookie: adminCookie },
        json,
        415,
        'JSON_BODY_REQUIRED',
      ],
      ['no content type', { origin: testOrigin }, json, 415, 'JSON_BODY_REQUIRED'],
      [
        'another site',
        { 'content-type': 'application/json', origin: 'https://evil.example', cookie: adminCookie },
        json,
        403,
        'INVALID_ORIGIN',
      ],
      ['no Origin', { 'content-type': 'application/json', cookie: adminCookie }, json, 403, 'MISSING_OR_NULL_ORIGIN'],
      [
        'a null Origin',
        { 'content-type': 'application/json', origin: 'null', cookie: adminCookie },
        json,
        403,
        'MISSING_OR_NULL_ORIGIN',
      ],
    ]
    for (const [what, headers, body, status, appCode] of cases) {
      const answer = await create(headers, body)
      expect(answer.status, what).toBe(status)
      const refusal = (await answer.json()) as { error: { json: { data: { appCode: string } } } }
      expect(refusal.error.json.data.appCode, what).toBe(appCode)
    }
    expect(await accountsBesides()).toEqual([])
    // Without a cookie there is no browser session to borrow: a script's JSON change needs no Origin, and goes on to
    // the procedure's own check (which wants a signed-in app admin).
    const script = await create({ 'content-type': 'application/json' }, json)
    expect(script.status).toBe(401)
    const answer = (await script.json()) as { error: { json: { data: { code: string } } } }
    expect(answer.error.json.data.code).toBe('UNAUTHORIZED')
    const fromTheApp = await create(
      { 'content-type': 'application/json', cookie: adminCookie, origin: testOrigin },
      json,
    )
    expect(fromTheApp.status, 'the same change from the app itself goes through').toBe(200)
    expect(await accountsBesides()).toEqual(['csrf@example.com'])
    await database.connection.db.delete(users).where(eq(users.email, 'csrf@example.com'))
  })

  it('answers malformed JSON with 400, never 500', async () => {
    const response = await fetchThroughHandler(`${endpoint}/users.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"json":',
    })
    expect(response.status).toBe(400)
  })

  it('keeps the status report for app admins: 401 signed out, 403 for an account that is not an app admin', async () => {
    const asAdmin = adminCookie
    try {
      adminCookie = ''
      const signedOut = await fetchThroughHandler(`${endpoint}/system.status`)
      expect(signedOut.status).toBe(401)

      // The second account of an install is an ordinary user.
      const signUp = await authRequest(createAuth(database.connection.db), '/sign-up/email', {
        body: { name: 'Visitor', email: 'visitor@example.com', password: 'visit-2026' },
        ip: '203.0.113.9',
      })
      adminCookie = cookieHeaderOf(signUp)
      const refused = await fetchThroughHandler(`${endpoint}/system.status`)
      expect(refused.status).toBe(403)
      const body = (await refused.json()) as { error: { json: { data: { appCode?: string } } } }
      expect(body.error.json.data.appCode).toBe('APP_ADMIN_ONLY')
    } finally {
      adminCookie = asAdmin
    }
  })
})
