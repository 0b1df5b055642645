import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleTrpcRequest } from '#/server/trpc/handler'
import type { AppRouter } from '#/server/trpc/root'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { newsletterSubscribers } from '../server/schema'

const endpoint = 'http://localhost/api/trpc'

describe.each(engines)('the newsletter on %s', (engine) => {
  let database: FreshDatabase
  let clientIp = '203.0.113.1'

  /** Sends real HTTP requests (URL, headers, body) through the same handler /api/trpc uses, as a visitor's browser. */
  const fetchThroughHandler = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers)
    if (init?.method === 'POST' && !headers.has('origin')) headers.set('origin', testOrigin)
    const request = Object.assign(new Request(input, { ...init, headers }), { ip: clientIp })
    return handleTrpcRequest(request, database.connection.db)
  }
  const client = () =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: endpoint, transformer: superjson, fetch: fetchThroughHandler })],
    })
  const stored = async () =>
    (await database.connection.db.select().from(newsletterSubscribers)).map((row) => [row.email, row.locale])

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(() => database.dispose())

  it('answers a bad address or language with 400 and the field errors to translate, and stores nothing', async () => {
    clientIp = '203.0.113.10'
    const response = await fetchThroughHandler(`${endpoint}/newsletter.subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: 'not-an-email', locale: 'fr' } }),
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as {
      error: { json: { data: { code: string; fieldErrors: Record<string, string[]> } } }
    }
    expect(body.error.json.data.code).toBe('BAD_REQUEST')
    expect(body.error.json.data.fieldErrors.email).toEqual(['validation_email_invalid'])
    expect(body.error.json.data.fieldErrors.locale).toHaveLength(1)
    expect(await stored()).toEqual([])
  })

  it('subscribes an address once, whatever its case, and says the same thing the second time', async () => {
    clientIp = '203.0.113.2'
    expect(await client().newsletter.subscribe.mutate({ email: 'Ada@Example.com', locale: 'en' })).toEqual({
      subscribed: true,
    })
    expect(await client().newsletter.subscribe.mutate({ email: 'ada@example.com ', locale: 'zh' })).toEqual({
      subscribed: true,
    })
    expect(await stored()).toEqual([['ada@example.com', 'en']])
  })

  it('limits subscription attempts per client address with 429, and other addresses are not affected', async () => {
    clientIp = '203.0.113.3'
    for (let attempt = 1; attempt <= 5; attempt++) {
      await client().newsletter.subscribe.mutate({ email: `reader${attempt}@example.com`, locale: 'en' })
    }
    const limited = await client()
      .newsletter.subscribe.mutate({ email: 'reader6@example.com', locale: 'en' })
      .catch((error: unknown) => error)
    expect(limited).toBeInstanceOf(TRPCClientError)
    expect((limited as TRPCClientError<AppRouter>).data?.httpStatus).toBe(429)
    expect((limited as TRPCClientError<AppRouter>).data?.code).toBe('TOO_MANY_REQUESTS')
    const raw = await fetchThroughHandler(`${endpoint}/newsletter.subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: 'reader7@example.com', locale: 'en' } }),
    })
    expect(raw.status).toBe(429)
    const retryAfter = Number(raw.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(600)
    expect((await stored()).map(([email]) => email)).not.toContain('reader6@example.com')
    clientIp = '203.0.113.4'
    await expect(client().newsletter.subscribe.mutate({ email: 'other@example.com', locale: 'en' })).resolves.toEqual({
      subscribed: true,
    })
  })

  it('takes a subscription from a script without a cookie and without an Origin, as a public form may', async () => {
    clientIp = '203.0.113.5'
    const response = await handleTrpcRequest(
      Object.assign(
        new Request(`${endpoint}/newsletter.subscribe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ json: { email: 'script@example.com', locale: 'zh' } }),
        }),
        { ip: clientIp },
      ),
      database.connection.db,
    )
    expect(response.status).toBe(200)
    expect(await stored()).toContainEqual(['script@example.com', 'zh'])
  })
})
