// A CSV import larger than the production server's body limit (scripts/serve.ts `maxRequestBodySize`) is refused
// with 413 and a code the client translates, through srvx's limit as in production, and writes nothing.

import { serve } from 'srvx'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookLimits } from '#/features/books/book-rules'
import { requestBodyBytesMax } from '#/lib/request-body-limit'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { assertSafeAnswer, fingerprint, observe } from '../../../../tests/fuzz/fuzz-support'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'

describe.each(engines)('an import over the body limit on %s', (engine) => {
  let database: FreshDatabase
  let server: ReturnType<typeof serve>
  let owner: Person
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    const h = organizationHarness(db())
    owner = await h.signUp('Large File Owner')
    await h.createOrganization(owner, 'Large Files', 'large-files')
    server = serve({
      port: 0,
      hostname: '127.0.0.1',
      silent: true,
      maxRequestBodySize: requestBodyBytesMax,
      fetch: (request) => handleTrpcRequest(request, db()),
    })
    await server.ready()
  })
  afterAll(async () => {
    await server?.close(true)
    await database?.dispose()
  })

  it('the import limit fits in the body limit, so the dialog refuses first', () => {
    expect(bookLimits.importBytesMax).toBeLessThan(requestBodyBytesMax)
  })

  it('answers 413 with a code, and stores nothing', async () => {
    const before = await fingerprint(db())
    const csv = `title\n${'A book that does not fit,\n'.repeat(Math.ceil((2 * requestBodyBytesMax) / 26))}`
    const response = await fetch(new URL('/api/trpc/books.import', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: testOrigin, cookie: owner.cookie },
      body: JSON.stringify(superjson.serialize({ csv, dryRun: false })),
    })
    const answer = await observe(response)
    assertSafeAnswer('books.import over the body limit', answer, '2 MB of CSV')
    expect(answer.status, answer.text).toBe(413)
    expect(answer.text).toMatch(/"appCode":"[A-Z_]+"/)
    expect(await fingerprint(db())).toEqual(before)
  })
})
