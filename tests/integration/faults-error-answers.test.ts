import { sql } from 'drizzle-orm'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { testOrigin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

/**
 * An invitation's preview (a public procedure whose query carries what the visitor sent) through the same handler as
 * /api/trpc.
 */
async function previewInvitation(database: FreshDatabase, n: number) {
  const input = encodeURIComponent(JSON.stringify(superjson.serialize({ id: `exit-secret-${n}` })))
  const response = await handleTrpcRequest(
    new Request(`${testOrigin}/api/trpc/organizations.invitationPreview?input=${input}`, {}),
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
  /Failed query|select "|from "invitations"|invitations_gone|params:|exit-secret-\d+|does not exist|at async/i

describe.each(coreEngines)('what a failed procedure answers, on %s', (engine) => {
  let database: FreshDatabase

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(() => database.dispose())

  it('answers a failed query with a generic 500 and a code to translate, never the query or its parameters', async () => {
    // A table gone from under the app: the select fails with the query text and the visitor's id in its message.
    await database.connection.db.execute(sql`alter table invitations rename to invitations_gone`)
    try {
      const answer = await previewInvitation(database, 1)
      expect(answer.status).toBe(500)
      expect(answer.error?.data.appCode).toBe('INTERNAL_SERVER_ERROR')
      expect(answer.error?.message).toBe('Internal server error')
      expect(answer.body).not.toMatch(internals)
    } finally {
      await database.connection.db.execute(sql`alter table invitations_gone rename to invitations`)
    }
  })

  it('answers 503 with Retry-After and SERVICE_UNAVAILABLE once the database is gone', async () => {
    await database.connection.close()
    const answer = await previewInvitation(database, 2)
    expect(answer.status).toBe(503)
    expect(answer.retryAfter).toMatch(/^\d+$/)
    expect(answer.error?.data).toMatchObject({ code: 'SERVICE_UNAVAILABLE', appCode: 'SERVICE_UNAVAILABLE' })
    expect(answer.body).not.toMatch(internals)
  })
})
