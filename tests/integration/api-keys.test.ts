import { eq, sql } from 'drizzle-orm'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authForDatabase } from '#/server/auth/auth'
import { apiKeys, rateLimits, users } from '#/server/db/schema'
import { apiKeyCallLimit } from '#/server/rate-limit'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { authRequest, cookieHeaderOf as cookiesOf, testOrigin as origin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

/** How a caller proves who they are: the browser's cookies, or an API key. */
type Credentials = { cookie: string } | { apiKey: string }

const headersOf = (credentials: Credentials): Record<string, string> =>
  'cookie' in credentials ? { cookie: credentials.cookie } : { 'x-api-key': credentials.apiKey }

describe.each(coreEngines)('API keys and user isolation on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof authForDatabase>
  let ipCounter = 0

  const authCall = (method: 'GET' | 'POST', path: string, credentials?: Credentials, body?: unknown) =>
    authRequest(auth, path, {
      method,
      body,
      ip: `198.51.100.${++ipCounter % 250}`,
      headers: credentials ? headersOf(credentials) : {},
    })

  /** A procedure over HTTP, through the same handler as /api/trpc. */
  const trpc = async (kind: 'query' | 'mutation', path: string, credentials: Credentials) => {
    const response = await handleTrpcRequest(
      new Request(`${origin}/api/trpc/${path}`, {
        method: kind === 'query' ? 'GET' : 'POST',
        // A browser sends its Origin with every change; a script with a key sends none.
        headers: {
          'content-type': 'application/json',
          ...('cookie' in credentials ? { origin } : {}),
          ...headersOf(credentials),
        },
      }),
      database.connection.db,
    )
    const body = (await response.json()) as { result?: { data: unknown }; error?: { json: { data: { code: string } } } }
    return {
      status: response.status,
      data: body.result ? superjson.deserialize(body.result.data as never) : undefined,
      errorCode: body.error?.json.data.code,
      retryAfter: response.headers.get('retry-after'),
    }
  }

  const signUp = async (name: string) => {
    const email = `${name.toLowerCase()}@example.com`
    const response = await authCall('POST', '/sign-up/email', undefined, { name, email, password: 'secret-pass1' })
    expect(response.status).toBe(200)
    const { user } = (await response.json()) as { user: { id: string } }
    return { id: user.id, email, cookie: cookiesOf(response) }
  }

  const createKey = async (credentials: Credentials, name: string) => {
    const response = await authCall('POST', '/api-key/create', credentials, { name })
    expect(response.status).toBe(200)
    return (await response.json()) as { id: string; key: string }
  }

  const listKeys = async (credentials: Credentials) => {
    const response = await authCall('GET', '/api-key/list', credentials)
    expect(response.status).toBe(200)
    return ((await response.json()) as { apiKeys: { id: string; name: string; referenceId: string }[] }).apiKeys
  }

  let ada: Awaited<ReturnType<typeof signUp>>
  let bob: Awaited<ReturnType<typeof signUp>>
  let adaKey: { id: string; key: string }
  let bobKey: { id: string; key: string }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = authForDatabase(database.connection.db)
    ada = await signUp('Ada')
    bob = await signUp('Bob')
    adaKey = await createKey(ada, 'Ada laptop')
    bobKey = await createKey(bob, 'Bob server')
  })
  afterAll(() => database.dispose())

  it('account.me answers each caller with their own user, by cookie and by key', async () => {
    for (const [who, credentials] of [
      [ada, { cookie: ada.cookie }],
      [ada, { apiKey: adaKey.key }],
      [bob, { cookie: bob.cookie }],
      [bob, { apiKey: bobKey.key }],
    ] as const) {
      const me = await trpc('query', 'account.me', credentials)
      expect(me.status).toBe(200)
      expect(me.data).toMatchObject({ id: who.id, email: who.email })
    }
  })

  it('lists only the caller’s own keys and sessions', async () => {
    expect((await listKeys({ cookie: ada.cookie })).map((key) => key.id)).toEqual([adaKey.id])
    expect((await listKeys({ cookie: bob.cookie })).map((key) => key.id)).toEqual([bobKey.id])

    const sessions = await authCall('GET', '/list-sessions', { cookie: bob.cookie })
    expect(sessions.status).toBe(200)
    const listed = (await sessions.json()) as { userId: string }[]
    expect(listed.length).toBeGreaterThan(0)
    expect(new Set(listed.map((session) => session.userId))).toEqual(new Set([bob.id]))
  })

  it('will not let one user delete or read another user’s key', async () => {
    const refused = await authCall('POST', '/api-key/delete', { cookie: bob.cookie }, { keyId: adaKey.id })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.status).toBeLessThan(500)
    const peek = await authCall('GET', `/api-key/get?id=${adaKey.id}`, { cookie: bob.cookie })
    expect(peek.status).toBeGreaterThanOrEqual(400)
    expect(peek.status).toBeLessThan(500)
    expect((await trpc('query', 'account.me', { apiKey: adaKey.key })).data).toMatchObject({ id: ada.id })
  })

  it('lets a key act only through the API, not on the account itself', async () => {
    // A leaked key must not be enough to delete the account, change it or end its sessions.
    for (const [path, body] of [
      ['/delete-user', {}],
      ['/update-user', { name: 'Mallory' }],
      ['/revoke-sessions', {}],
      ['/api-key/create', { name: 'Minted by a key' }],
    ] as const) {
      const response = await authCall('POST', path, { apiKey: bobKey.key }, body)
      expect(response.status, path).toBe(403)
    }
    expect((await trpc('query', 'account.me', { apiKey: bobKey.key })).data).toMatchObject({ id: bob.id, name: 'Bob' })
    expect((await trpc('query', 'account.me', { cookie: bob.cookie })).status).toBe(200)
  })

  it('counts a key’s calls in fixed windows: past the limit 429 with Retry-After, and the next window works again', async () => {
    const steady = await createKey(bob, 'Steady worker')
    const window = eq(rateLimits.key, `api-key:${steady.id}`)
    const callsCounted = async () => (await database.connection.db.select().from(rateLimits).where(window))[0]?.count
    expect((await trpc('query', 'account.me', { apiKey: steady.key })).status).toBe(200)
    expect((await trpc('query', 'account.me', { apiKey: steady.key })).status).toBe(200)
    expect(await callsCounted(), 'one count per call').toBe(2)
    // The window's allowance used up (as 600 calls in the minute would): refused, with when to come back.
    await database.connection.db.update(rateLimits).set({ count: apiKeyCallLimit.limit }).where(window)
    const refused = await trpc('query', 'account.me', { apiKey: steady.key })
    expect(refused).toMatchObject({ status: 429, errorCode: 'TOO_MANY_REQUESTS' })
    expect(Number(refused.retryAfter)).toBeGreaterThan(0)
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(apiKeyCallLimit.windowMs / 1000)
    expect((await trpc('query', 'account.me', { apiKey: bobKey.key })).status, 'each key has its own count').toBe(200)
    // A minute later the key works again although it was used a moment ago: a steady caller is never locked out.
    await database.connection.db
      .update(rateLimits)
      .set({ windowStartedAt: sql`now() - interval '61 seconds'` })
      .where(window)
    expect((await trpc('query', 'account.me', { apiKey: steady.key })).status).toBe(200)
    expect(await callsCounted(), 'a new window starts from one').toBe(1)
  })

  it('answers a deleted key with 401 UNAUTHORIZED, never a 500', async () => {
    const doomed = await createKey(ada, 'Short-lived')
    expect((await trpc('query', 'account.me', { apiKey: doomed.key })).status).toBe(200)
    const deleted = await authCall('POST', '/api-key/delete', { cookie: ada.cookie }, { keyId: doomed.id })
    expect(deleted.status).toBe(200)
    const after = await trpc('query', 'account.me', { apiKey: doomed.key })
    expect(after).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED' })
  })

  it('answers an expired key with 401, and deleteExpired removes only the caller’s expired keys', async () => {
    // The plugin refuses an expiry under a day, so the row is moved into the past directly.
    const adaOld = await createKey(ada, 'Ada old')
    const bobOld = await createKey(bob, 'Bob old')
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000)
    const db = database.connection.db
    await db.update(apiKeys).set({ expiresAt: yesterday }).where(eq(apiKeys.id, adaOld.id))
    await db.update(apiKeys).set({ expiresAt: yesterday }).where(eq(apiKeys.id, bobOld.id))

    const removed = await trpc('mutation', 'apiKeys.deleteExpired', { cookie: ada.cookie })
    expect(removed).toMatchObject({ status: 200, data: { deleted: 1 } })
    const remaining = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, bobOld.id))
    expect(remaining).toHaveLength(1)

    const expired = await trpc('query', 'account.me', { apiKey: bobOld.key })
    expect(expired).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED' })
    expect((await trpc('query', 'account.me', { apiKey: bobKey.key })).data).toMatchObject({ id: bob.id })
  })

  it('moves a guest’s keys to the account they sign up for, and deletes the guest', async () => {
    const guest = await authCall('POST', '/sign-in/anonymous')
    expect(guest.status).toBe(200)
    const guestCookie = cookiesOf(guest)
    const { user: guestUser } = (await guest.json()) as { user: { id: string; name: string } }
    expect(guestUser.name).toBe('Guest')
    const guestKey = await createKey({ cookie: guestCookie }, 'Guest key')

    const linked = await authCall(
      'POST',
      '/sign-up/email',
      { cookie: guestCookie },
      { name: 'Grace', email: 'grace@example.com', password: 'secret-pass1' },
    )
    expect(linked.status).toBe(200)
    const { user: grace } = (await linked.json()) as { user: { id: string } }
    expect((await trpc('query', 'account.me', { apiKey: guestKey.key })).data).toMatchObject({
      id: grace.id,
      email: 'grace@example.com',
    })
    const guestRows = await database.connection.db.select().from(users).where(eq(users.id, guestUser.id))
    expect(guestRows).toHaveLength(0)
  })
})
