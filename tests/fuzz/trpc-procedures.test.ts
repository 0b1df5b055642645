// Every tRPC procedure, found by walking the app router (a new procedure is fuzzed without editing this file), called
// over HTTP through the real /api/trpc handler the way the browser calls it: superjson in the query string or body,
// the session cookie, this site's origin. Each case tries one input as the owner of an existing organization (who is
// also an app admin, so permission checks pass and the input handling is reached) and anonymously, or a raw body or
// query string that is not valid superjson.
import fc from 'fast-check'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setAppRole } from '#/server/auth/app-admins'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { appRouter } from '#/server/trpc/root'
import { testOrigin } from '../integration/auth-requests'
import { organizationHarness, type Person, password } from '../integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../integration/test-databases'
import { inputsFor, malformedBodies, malformedQueries } from './arbitraries'
import { assertSafeAnswer, describeInput, fuzz, fuzzTimeout, observe, refusalWatch } from './fuzz-support'

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription'
  inputs: unknown[]
}
/** The router's own list of procedures: tRPC keeps every procedure by its dotted path in `_def.procedures`. */
const procedures = Object.entries(
  (appRouter._def as unknown as { procedures: Record<string, { _def: ProcedureDef }> }).procedures,
).map(([path, procedure]) => ({ path, type: procedure._def.type, inputs: procedure._def.inputs }))

/** The body or query string of a call, as the tRPC client would write it (or as close as the value allows). */
function encode(input: unknown): string | undefined {
  if (input === undefined) return undefined
  try {
    return JSON.stringify(superjson.serialize(input))
  } catch {
    // superjson refuses some values (e.g. own `__proto__` keys): send them as plain JSON, as a hand-made call would.
    try {
      return JSON.stringify({ json: input })
    } catch {
      return String(input)
    }
  }
}

type Case =
  | { kind: 'input'; input: unknown }
  | { kind: 'raw-body'; body: string; contentType: string }
  | { kind: 'raw-query'; query: string }

const contentTypes = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  '',
]

/** A value a cursor could hold: text, dates in any spelling, numbers of any size, NUL. */
const cursorValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    'abc',
    '',
    '\u0000',
    'a\u0000b',
    '2026-02-30 00:00:00+00',
    '99999999999',
    '1.5',
    '-0',
    'NaN',
    'Infinity',
  ),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map(String),
)
/** Cursors as the lists write them (base64url of `[key, id]`) but holding values of any type: refused, never a 5xx. */
const wellFormedCursors = fc
  .tuple(cursorValue, cursorValue)
  .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url'))
const takesCursor = (inputs: unknown[]) =>
  inputs.some((schema) => Object.hasOwn((schema as { shape?: object }).shape ?? {}, 'after'))

describe.each(engines)('fuzzing every tRPC procedure on %s', (engine) => {
  let database: FreshDatabase
  let h: ReturnType<typeof organizationHarness>
  let owner: Person
  let organizationId: string
  const db = () => database.connection.db

  const send = async (
    path: string,
    type: ProcedureDef['type'],
    cookie: string | undefined,
    options: { payload?: string; query?: string; contentType?: string },
  ) => {
    const query =
      options.query ?? (type === 'query' && options.payload ? `input=${encodeURIComponent(options.payload)}` : '')
    const headers: Record<string, string> = { origin: testOrigin, 'sec-fetch-site': 'same-origin' }
    if (options.contentType !== '') headers['content-type'] = options.contentType ?? 'application/json'
    if (cookie) headers.cookie = cookie
    const response = await handleTrpcRequest(
      new Request(`${testOrigin}/api/trpc/${path}${query ? `?${query}` : ''}`, {
        method: type === 'query' ? 'GET' : 'POST',
        headers,
        body: type === 'query' ? undefined : (options.payload ?? ''),
      }),
      db(),
    )
    return observe(response)
  }

  /** Signs the owner in again and makes the organization active if a fuzzed call ended their session. */
  const keepOwnerSignedIn = async () => {
    const me = await send('account.me', 'query', owner.cookie, {})
    const session = await h.call<{ session?: { activeOrganizationId?: string | null } } | null>('/get-session', {
      cookie: owner.cookie,
    })
    if (me.status === 401 || !session.body?.session) {
      const signedIn = await h.call('/sign-in/email', { body: { email: owner.email, password } })
      expect(signedIn.status, 'the owner signs in again').toBe(200)
      owner = { ...owner, cookie: signedIn.cookie }
    }
    if (session.body?.session?.activeOrganizationId !== organizationId) {
      const active = await h.call('/organization/set-active', { body: { organizationId }, cookie: owner.cookie })
      expect(active.status, 'the organization becomes active again').toBe(200)
    }
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    owner = await h.signUp('Fuzz Owner')
    await setAppRole(db(), owner.email, 'admin')
    // On the Free plan, as a new organization starts: billing runs through the real local provider, not a test row.
    organizationId = await h.createOrganization(owner, 'Fuzz Library', 'fuzz-library', { plan: 'free' })
    // A few real rows for the fuzzed ids and names to brush against.
    for (const name of ['三体', '<b>Bold</b>', "O'Reilly"]) {
      const created = await h.call('/organization/create-team', {
        body: { name, organizationId },
        cookie: owner.cookie,
      })
      expect(created.status, `the team ${name}`).toBe(200)
    }
  })
  afterAll(async () => {
    await database?.dispose()
  })

  it('finds the procedures by walking the router', () => {
    expect(procedures.length).toBeGreaterThan(30)
    expect(procedures.map((procedure) => procedure.path)).toContain('organizations.transferOwnership')
  })

  it.each(procedures)(
    '$path ($type): never a 5xx or a leak, and refused changes write nothing',
    async ({ path, type, inputs }) => {
      const target = `trpc ${path}`
      const watch = refusalWatch(db(), target)
      await watch.start()
      const withCursor = fc
        .tuple(inputsFor(inputs), wellFormedCursors, fc.constantFrom('after', 'before'))
        .map(([input, cursor, place]): Case => {
          const base = input && typeof input === 'object' && !Array.isArray(input) ? input : {}
          return { kind: 'input', input: { ...base, [place]: cursor } }
        })
      const cases: fc.Arbitrary<Case> = fc.oneof(
        { weight: 8, arbitrary: inputsFor(inputs).map((input): Case => ({ kind: 'input', input })) },
        ...(takesCursor(inputs) ? [{ weight: 4, arbitrary: withCursor }] : []),
        type === 'query'
          ? { weight: 2, arbitrary: malformedQueries.map((query): Case => ({ kind: 'raw-query', query })) }
          : {
              weight: 2,
              arbitrary: fc
                .tuple(malformedBodies, fc.constantFrom(...contentTypes))
                .map(([body, contentType]): Case => ({ kind: 'raw-body', body, contentType })),
            },
      )
      await fuzz(
        target,
        fc.asyncProperty(cases, async (fuzzCase) => {
          const request =
            fuzzCase.kind === 'input'
              ? { payload: encode(fuzzCase.input) }
              : fuzzCase.kind === 'raw-body'
                ? { payload: fuzzCase.body, contentType: fuzzCase.contentType }
                : { query: fuzzCase.query }
          const shown = fuzzCase.kind === 'input' ? fuzzCase.input : fuzzCase
          for (const [who, cookie] of [
            ['owner', owner.cookie],
            ['anonymous', undefined],
          ] as const) {
            const answer = await send(path, type, cookie, request)
            assertSafeAnswer(`${target} as ${who}`, answer, shown)
            if (type === 'mutation') await watch.record(answer.status, { who, input: describeInput(shown) })
          }
        }),
        { engine },
      )
      await watch.finish()
      await keepOwnerSignedIn()
    },
    fuzzTimeout(),
  )
})
