import { sql } from 'drizzle-orm'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { testOrigin } from './auth-requests'
import { createFreshDatabase, engines, type FreshDatabase } from './test-databases'

/** A newsletter subscription (a public procedure that writes) through the same handler as /api/trpc. */
async function subscribe(database: FreshDatabase, n: number) {
  const response = await handleTrpcRequest(
    new Request(`${testOrigin}/api/trpc/newsletter.subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: testOrigin, 'x-forwarded-for': `10.7.0.${n}` },
      body: JSON.stringify(superjson.serialize({ email: `exit-${n}@example.com`, locale: 'en' })),
    }),
    database.connection.db,
  )
  const body = await response.text()
  const { error } = JSON.parse(body) as {
    error?: { json: { message: string; data: { code: string; appCode?: string; httpStatus: number } } }
  }
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body, error: error?.json }
}

/** What must never be in an answer: the query, its parameters, the database's own words, a stack. */
const internals =
  /Failed query|insert into|newsletter_subscribers|params:|exit-\d+@example\.com|does not exist|at async/i

describe.each(engines)('what a failed procedure answers, on %s', (engine) => {
  let database: FreshDatabase

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(() => database.dispose())

  it('answers a failed query with a generic 500 and a code to translate, never the query or its parameters', async () => {
    // A table gone from under the app: the insert fails with the query text and the address in its message.
    await database.connection.db.execute(sql`alter table newsletter_subscribers rename to newsletter_gone`)
    try {
      const answer = await subscribe(database, 1)
      expect(answer.status).toBe(500)
      expect(answer.error?.data.appCode).toBe('INTERNAL_SERVER_ERROR')
      expect(answer.error?.message).toBe('Internal server error')
      expect(answer.body).not.toMatch(internals)
    } finally {
      await database.connection.db.execute(sql`alter table newsletter_gone rename to newsletter_subscribers`)
    }
  })

  it('answers 503 with Retry-After and SERVICE_UNAVAILABLE once the database is gone', async () => {
    await database.connection.close()
    const answer = await subscribe(database, 2)
    expect(answer.status).toBe(503)
    expect(answer.retryAfter).toMatch(/^\d+$/)
    expect(answer.error?.data).toMatchObject({ code: 'SERVICE_UNAVAILABLE', appCode: 'SERVICE_UNAVAILABLE' })
    expect(answer.body).not.toMatch(internals)
  })
})
