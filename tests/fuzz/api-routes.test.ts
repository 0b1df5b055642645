// Every /api route with hostile requests. Better Auth's endpoints are found by walking `auth.api` for the app's own
// configuration (every plugin's endpoints, with the path and methods the handler routes), so a new plugin is fuzzed
// without editing this file. The other routes are called through the functions their route files call, with the
// test's database: the app's real entry (src/server.ts) needs TanStack Start's build-time modules and the one
// process-wide database from the environment, which cannot be two engines in one Vitest process. What the entry adds
// in front of these handlers (security headers, compression, locale redirects) does not read the input.
// /api/search is fuzzed in docs-search-route.test.ts, against the production build: its index is built from the
// compiled docs, which exist only in a build.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { limitRequestBody } from 'srvx/body-limit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerDocsQuestion } from '#/features/docs/server/ask-docs'
import { answerFileRequest } from '#/features/uploads/server/file-answers'
import { answerAvatarUpload, answerLogoUpload } from '#/features/uploads/server/image-uploads'
import { requestBodyBytesMax } from '#/lib/request-body-limit'
import { Route as wellKnownCatchAllRoute } from '#/routes/[.]well-known/$'
import { Route as apiCatchAllRoute } from '#/routes/api/$'
import { createAiProvider } from '#/server/ai/provider'
import { setAppRole } from '#/server/auth/app-admins'
import { clientIpHeader } from '#/server/auth/auth'
import { authUrlTooLongError } from '#/server/auth/request-checks'
import { useFileStorage } from '#/server/files/configured-storage'
import { localFileStorage } from '#/server/files/local-storage'
import { checkHealth } from '#/server/health'
import { answerMcpRequest } from '#/server/mcp'
import { metricsAnswer } from '#/server/metrics'
import { answerWithinBodyLimit } from '#/server/request-body'
import { unreadableRequestTarget, unreadableTargetAnswer } from '#/server/request-path'
import { testOrigin } from '../integration/auth-requests'
import { organizationHarness, type Person, password } from '../integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../integration/test-databases'
import { type FakeOpenAi, fakeModelId, startFakeOpenAi } from '../support/fake-openai'
import {
  chunkSizes,
  encoded,
  hostileText,
  hostileValue,
  malformedBodies,
  sizesPast,
  undecodableEscapes,
  unreadableParameters,
  validish,
} from './arbitraries'
import { assertSafeAnswer, describeInput, fuzz, fuzzRuns, fuzzTimeout, observe, refusalWatch } from './fuzz-support'
import type { RouteFuzzTarget, RouteFuzzTargets } from './route-targets'

/** The installed apps' own routes to attack (src/features/<app>/tests/route-fuzz-targets.ts). */
const appRouteTargets = import.meta.glob<RouteFuzzTargets>('../../src/features/*/tests/route-fuzz-targets.ts', {
  eager: true,
})

interface EndpointOptions {
  method: string | string[]
  body?: unknown
  query?: unknown
  metadata?: { SERVER_ONLY?: boolean }
}
type Endpoint = { path?: string; options?: EndpointOptions }

/** Text of any value, even one without a prototype (String() throws on those). */
function textOf(value: unknown): string {
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}

/** Percent-encoding that also takes lone surrogates (encodeURIComponent throws on them; a client would send U+FFFD). */

/** Serialises a fuzzed body as JSON where it can (BigInt and cycles cannot be), else as text. */
function bodyText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined'
  } catch {
    return textOf(value)
  }
}

/** A query string from fuzzed values: objects as JSON, the rest as text. */
function queryString(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return value === undefined ? '' : `q=${encoded(textOf(value))}`
  const params = new URLSearchParams()
  for (const [key, item] of Object.entries(value)) {
    params.append(key, typeof item === 'object' && item !== null ? bodyText(item) : textOf(item))
  }
  return params.toString()
}

/** Where the fuzzed uploads go (the app's own DATA_DIR stays untouched). */
const filesRoot = mkdtempSync(path.join(tmpdir(), 'hatch-fuzz-files-'))

/** Whether a fuzzed request carries the signed-in person's session cookie. */

/** Replaces `:id`-style parameters of a route with fuzzed text. */
const withParams = (path: string, text: string) => path.replace(/:[a-zA-Z]+/g, () => encoded(text) || 'x')

const routeContentTypes = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  '',
]

describe.each(engines)('fuzzing every /api route on %s', (engine) => {
  let database: FreshDatabase
  let h: ReturnType<typeof organizationHarness>
  let person: Person
  let organizationId: string
  let apiKey: string
  let fake: FakeOpenAi
  let address = 0
  const db = () => database.connection.db
  const nextIp = () => {
    address += 1
    return `203.0.${Math.floor(address / 250) % 250}.${(address % 250) + 1}`
  }

  const endpoints = () =>
    Object.entries(h.auth.api as unknown as Record<string, Endpoint>)
      .filter(([, endpoint]) => endpoint.path && endpoint.options && !endpoint.options.metadata?.SERVER_ONLY)
      .map(([name, endpoint]) => ({
        name,
        path: endpoint.path as string,
        methods: [endpoint.options?.method ?? 'GET'].flat().filter((method) => method !== '*'),
        body: endpoint.options?.body,
        query: endpoint.options?.query,
      }))

  /** A fuzzed call may end the session, switch or delete the organization, or delete the account: undo it. */
  const restorePerson = async () => {
    const session = await h.call<{ session?: { activeOrganizationId?: string | null } } | null>('/get-session', {
      cookie: person.cookie,
    })
    if (!session.body?.session) {
      const signedIn = await h.call('/sign-in/email', { body: { email: person.email, password } })
      if (signedIn.status === 200) person = { ...person, cookie: signedIn.cookie }
      else {
        person = await h.signUp(`Route Fuzzer ${Date.now()}`)
        await setAppRole(db(), person.email, 'admin')
        organizationId = ''
      }
    }
    const active = await h.call('/organization/set-active', { body: { organizationId }, cookie: person.cookie })
    if (active.status !== 200) {
      organizationId = await h.createOrganization(person, 'Route Fuzz', `route-fuzz-${Date.now()}`, { plan: 'free' })
    }
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    person = await h.signUp('Route Fuzzer')
    await setAppRole(db(), person.email, 'admin')
    organizationId = await h.createOrganization(person, 'Route Fuzz', 'route-fuzz', { plan: 'free' })
    const key = await h.call<{ key: string }>('/api-key/create', { body: { name: 'Fuzz' }, cookie: person.cookie })
    expect(key.status).toBe(200)
    apiKey = key.body.key
    fake = await startFakeOpenAi()
    useFileStorage(localFileStorage({ root: filesRoot, appUrl: testOrigin, secret: 'the fuzz run’s file-link secret' }))
  })
  afterAll(async () => {
    await fake?.close()
    await database?.dispose()
  })

  it('finds Better Auth’s endpoints by walking its API', () => {
    const paths = endpoints().map((endpoint) => endpoint.path)
    expect(paths).toEqual(expect.arrayContaining(['/sign-in/email', '/organization/create', '/api-key/create']))
  })

  describe('Better Auth endpoints at /api/auth', () => {
    // Listed once the harness exists; the list is the configured plugins' endpoints, read at run time.
    it(
      'every endpoint: never a 5xx or a leak, and refused changes write nothing',
      async () => {
        for (const endpoint of endpoints()) {
          const target = `auth ${endpoint.methods.join('|')} ${endpoint.path}`
          // A wrong one-time code counts against that code and, after a few, voids it (brute-force protection).
          const watch = refusalWatch(db(), target, {
            mayChange: /otp|two-factor|verify|magic-link/.test(endpoint.path) ? ['verifications'] : [],
          })
          await watch.start()
          const body = endpoint.body ? fc.oneof(validish(endpoint.body), hostileValue) : hostileValue
          const query = endpoint.query ? fc.oneof(validish(endpoint.query), hostileValue) : fc.constant(undefined)
          const cases = fc.record({
            method: fc.constantFrom(...endpoint.methods),
            signedIn: fc.boolean(),
            body: fc.oneof({ weight: 4, arbitrary: body.map(bodyText) }, { weight: 1, arbitrary: malformedBodies }),
            query,
            param: hostileText,
            contentType: fc.constantFrom(...routeContentTypes),
          })
          await fuzz(
            target,
            fc.asyncProperty(cases, async (fuzzCase) => {
              const search = queryString(fuzzCase.query)
              const url = `${testOrigin}/api/auth${withParams(endpoint.path, fuzzCase.param)}${search ? `?${search}` : ''}`
              const headers: Record<string, string> = { origin: testOrigin, [clientIpHeader]: nextIp() }
              if (fuzzCase.contentType) headers['content-type'] = fuzzCase.contentType
              if (fuzzCase.signedIn) headers.cookie = person.cookie
              // The /api/auth route's own check, before Better Auth (src/routes/api/auth.$.ts).
              const tooLong = authUrlTooLongError(url)
              const answer = await observe(
                tooLong
                  ? Response.json(tooLong, { status: 414 })
                  : await h.auth.handler(
                      new Request(url, {
                        method: fuzzCase.method,
                        headers,
                        body: fuzzCase.method === 'GET' ? undefined : fuzzCase.body,
                      }),
                    ),
              )
              assertSafeAnswer(target, answer, fuzzCase)
              if (fuzzCase.method !== 'GET') await watch.record(answer.status, describeInput(fuzzCase))
            }),
            { engine },
          )
          await watch.finish()
          await restorePerson()
        }
      },
      fuzzTimeout(130),
    )
  })

  const routes: RouteFuzzTarget[] = [
    {
      // The protocol itself, without tools (the docs' read the content collections, which only a build has); an app
      // fuzzes its own tools in its route-fuzz-targets.ts.
      target: 'POST|GET|DELETE /api/mcp',
      path: () => '/api/mcp',
      methods: ['POST', 'GET', 'DELETE'],
      call: (request) => answerMcpRequest(request, { db: db(), clientIp: nextIp(), toolSets: [] }),
      body: fc.oneof(
        fc.record({
          jsonrpc: fc.constantFrom('2.0', '1.0', hostileValue),
          id: fc.oneof(fc.integer(), hostileValue),
          method: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'resources/list'),
          params: fc.oneof(
            fc.record({
              name: fc.constantFrom('search_docs', 'nope'),
              arguments: fc.dictionary(fc.constantFrom('query', 'path', 'language', 'limit'), hostileValue),
            }),
            hostileValue,
          ),
        }),
        fc.array(hostileValue, { maxLength: 3 }),
      ),
    },
    {
      target: 'POST /api/ask-docs',
      path: () => '/api/ask-docs',
      methods: ['POST'],
      call: (request) =>
        answerDocsQuestion(request, {
          db: db(),
          clientIp: nextIp(),
          provider: createAiProvider({ baseURL: fake.url, model: fakeModelId }),
          questionsPerMinute: 1_000_000,
          trustedOrigins: [testOrigin],
          retrieve: async () => [],
        }),
      body: fc.record({
        question: fc.oneof(hostileText, hostileValue),
        locale: fc.constantFrom('en', 'zh', 'xx', hostileValue),
      }),
    },
    {
      target: 'POST|DELETE /api/uploads/avatar',
      path: () => '/api/uploads/avatar',
      methods: ['POST', 'DELETE'],
      call: (request) => answerAvatarUpload(request, db()),
      body: fc.oneof(hostileText, fc.constant('<svg xmlns="http://www.w3.org/2000/svg"/>'), fc.constant('GIF89a')),
    },
    {
      target: 'POST|DELETE /api/uploads/organization-logo',
      path: () => '/api/uploads/organization-logo',
      methods: ['POST', 'DELETE'],
      call: (request) => answerLogoUpload(request, db()),
      body: fc.oneof(hostileText, fc.constant('<svg xmlns="http://www.w3.org/2000/svg"/>'), fc.constant('GIF89a')),
    },
    {
      target: 'GET /api/files/{key}',
      path: (key) =>
        `/api/files/${encoded(key)}?expires=${Math.floor(Date.now() / 1000) + 60}&signature=${encoded(key)}`,
      methods: ['GET'],
      call: async (request, key) => {
        const answer = await answerFileRequest(request, key)
        expect([403, 404], 'no file without its signed link').toContain(answer.status)
        return answer
      },
      body: fc.constant(undefined),
    },
    {
      target: 'GET /api/health',
      path: () => '/api/health',
      methods: ['GET'],
      call: () => checkHealth(db()),
      body: fc.constant(undefined),
    },
    {
      target: 'GET /api/metrics (any Authorization header)',
      path: () => '/api/metrics',
      methods: ['GET'],
      call: async (request) => {
        // The fuzzed body becomes the Authorization header (without the characters a header cannot hold).
        const authorization = (await request.text()).replace(/[^\t\x20-\x7e\x80-\xff]/g, ' ')
        const answer = await metricsAnswer(
          new Request(request.url, { headers: { authorization } }),
          'the-metrics-token-of-this-fuzz-run',
        )
        expect(answer.status, 'only the token opens the metrics').toBe(401)
        return answer
      },
      body: fc.oneof(
        hostileText,
        hostileText.map((text) => `Bearer ${text}`),
        fc.constant('Bearer the-metrics-token-of-this-fuzz-run '),
      ),
    },
    {
      target: 'ANY /api/$ (no such route)',
      path: (rest) => `/api/${encoded(rest)}`,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      call: (request) => {
        const handlers = (
          apiCatchAllRoute.options.server as { handlers: Record<string, (context: { request: Request }) => Response> }
        ).handlers
        const handler = handlers[request.method]
        if (!handler) throw new Error(`no ${request.method} handler`)
        return Promise.resolve(handler({ request }))
      },
      body: hostileValue,
    },
    {
      // OAuth discovery (oauth-protected-resource, its per-path form, openid-configuration) and anything else.
      target: 'ANY /.well-known/$ (no such document)',
      path: (rest) => `/.well-known/${encoded(rest)}`,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      call: async (request) => {
        const handlers = (
          wellKnownCatchAllRoute.options.server as {
            handlers: Record<string, (context: { request: Request }) => Response>
          }
        ).handlers
        const handler = handlers[request.method]
        if (!handler) throw new Error(`no ${request.method} handler`)
        const answer = handler({ request })
        expect(answer.status, 'a /.well-known path nobody serves is a plain 404, never a redirect').toBe(404)
        return answer
      },
      body: hostileValue,
    },
    ...Object.values(appRouteTargets).flatMap((app) =>
      app.routeFuzzTargets({
        db,
        nextIp,
        aiUrl: () => fake.url,
        origin: testOrigin,
        organization: () => ({ id: organizationId, ownerId: person.id }),
      }),
    ),
  ]

  it.each(routes)(
    '$target: never a 5xx or a leak, and refused changes write nothing',
    async (route) => {
      // Made before the watch starts: the record is the fuzzer's, not a change a refused request made.
      const record = await route.record?.()
      const watch = refusalWatch(db(), route.target)
      await watch.start()
      const extra = route.target.includes('{provider}')
        ? fc.oneof(fc.constantFrom('local', 'stripe', 'paddle'), hostileText)
        : record
          ? fc.oneof(fc.constant(record), hostileText)
          : hostileText
      const cases = fc.record({
        method: fc.constantFrom(...route.methods),
        body: fc.oneof({ weight: 3, arbitrary: route.body.map(bodyText) }, { weight: 1, arbitrary: malformedBodies }),
        extra,
        credentials: fc.constantFrom('none', 'cookie', 'api-key', 'forged-key'),
        contentType: fc.constantFrom(...routeContentTypes),
        crossSite: fc.boolean(),
        signature: fc.oneof(fc.constant(undefined), hostileText),
      })
      await fuzz(
        route.target,
        fc.asyncProperty(cases, async (fuzzCase) => {
          const headers: Record<string, string> = {
            origin: fuzzCase.crossSite ? 'https://evil.example' : testOrigin,
            accept: 'application/json, text/event-stream',
            'x-forwarded-for': nextIp(),
          }
          if (fuzzCase.contentType) headers['content-type'] = fuzzCase.contentType
          if (fuzzCase.credentials === 'cookie') headers.cookie = person.cookie
          if (fuzzCase.credentials === 'api-key') headers['x-api-key'] = apiKey
          if (fuzzCase.credentials === 'forged-key') headers.authorization = `Bearer ${apiKey.slice(0, -4)}AAAA`
          if (fuzzCase.signature !== undefined) {
            headers['stripe-signature'] = fuzzCase.signature.replace(/[^\x20-\x7e]/g, '')
            headers['x-hatch-signature'] = fuzzCase.signature.replace(/[^\x20-\x7e]/g, '')
          }
          const request = new Request(`${testOrigin}${route.path(fuzzCase.extra)}`, {
            method: fuzzCase.method,
            headers,
            body: fuzzCase.method === 'GET' ? undefined : fuzzCase.body,
          })
          const answer = await observe(await route.call(request, fuzzCase.extra))
          assertSafeAnswer(route.target, answer, fuzzCase)
          if (fuzzCase.method !== 'GET') await watch.record(answer.status, describeInput(fuzzCase))
        }),
        { engine },
      )
      await watch.finish()
    },
    fuzzTimeout(),
  )

  it(
    'an address that cannot be read reaches no route: one 400 at the edge, whatever the route and parameter',
    async () => {
      const cases = fc.record({
        route: fc.constantFrom(...routes),
        method: fc.constantFrom('GET', 'POST', 'HEAD', 'DELETE'),
        // In a path: an escape that is not UTF-8 or a control character; in a query: not UTF-8, or a NUL.
        unreadable: fc.oneof(
          unreadableParameters.map((text) => ({ where: 'path' as const, text })),
          fc.oneof(undecodableEscapes, fc.constant('%00')).map((text) => ({ where: 'query' as const, text })),
        ),
      })
      await fuzz(
        'edge: addresses that cannot be read',
        fc.asyncProperty(cases, async ({ route, method, unreadable }) => {
          const template = route.path('PARAMETER').split('?')[0] ?? ''
          const path =
            unreadable.where === 'query'
              ? `${template.replaceAll('PARAMETER', 'x')}?q=${unreadable.text}`
              : template.includes('PARAMETER')
                ? template.replaceAll('PARAMETER', unreadable.text)
                : `${template}/${unreadable.text}`
          const request = new Request(`${testOrigin}${path}`, { method, headers: { cookie: person.cookie } })
          expect(unreadableRequestTarget(request.url), `${method} ${path} is refused`).not.toBeNull()
          const answer = await observe(unreadableTargetAnswer(request))
          assertSafeAnswer('edge', answer, { method, path })
          expect(answer.status).toBe(400)
        }),
        { engine },
      )
    },
    fuzzTimeout(),
  )

  /** A body streamed without a declared length, `size` bytes in chunks of `chunk`; `sent()` says how much was read. */
  const streamedBody = (size: number, chunk: number) => {
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close()
        const part = Math.min(chunk, size - sent)
        controller.enqueue(new Uint8Array(part).fill(0x7b))
        sent += part
      },
    })
    return { stream, sent: () => sent }
  }

  it.each(routes.filter((route) => route.methods.includes('POST')))(
    '$target: a chunked body past the limit is never a 5xx, and 413 once read past it',
    async (route) => {
      const uploads = route.target.includes('/api/uploads/')
      const record = await route.record?.()
      const cases = fc.record({
        size: sizesPast(requestBodyBytesMax),
        chunk: chunkSizes,
        extra: route.target.includes('{provider}')
          ? fc.constantFrom('local', 'stripe')
          : record
            ? fc.constant(record)
            : fc.constant('x'),
        contentType: fc.constantFrom('application/json', 'text/plain', 'image/png', ''),
      })
      await fuzz(
        `${route.target} (chunked past the limit)`,
        fc.asyncProperty(cases, async (fuzzCase) => {
          const headers: Record<string, string> = {
            origin: testOrigin,
            cookie: person.cookie,
            'transfer-encoding': 'chunked',
            'x-forwarded-for': nextIp(),
          }
          if (fuzzCase.contentType) headers['content-type'] = fuzzCase.contentType
          const body = streamedBody(fuzzCase.size, fuzzCase.chunk)
          const request = new Request(`${testOrigin}${route.path(fuzzCase.extra)}`, {
            method: 'POST',
            headers,
            body: body.stream,
            duplex: 'half',
          } as RequestInit)
          // The upload routes are held by srvx's own limit (the largest plan's file size; scaled down here) and
          // their plan's; every other route by the server's 1 MiB (scripts/serve.ts).
          const response = uploads
            ? await route.call(limitRequestBody(request, requestBodyBytesMax), fuzzCase.extra)
            : await answerWithinBodyLimit(request, requestBodyBytesMax, (limited) =>
                route.call(limited, fuzzCase.extra),
              )
          const answer = await observe(response)
          assertSafeAnswer(route.target, answer, { ...fuzzCase, body: `${fuzzCase.size} bytes, chunked` })
          // A route may answer before it reads (analytics off, no such provider); one that read past the limit
          // answers 413, whatever it made of the cut-off body.
          if (body.sent() > requestBodyBytesMax) expect(answer.status, `${route.target} read past the limit`).toBe(413)
        }),
        { runs: Math.max(10, Math.ceil(fuzzRuns / 5)), engine },
      )
    },
    fuzzTimeout(),
  )
})
