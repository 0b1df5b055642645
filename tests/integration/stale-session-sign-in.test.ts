import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { organizationHarness, password } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

describe.each(coreEngines)('signing in with a stale session cookie on %s', (engine) => {
  let database: FreshDatabase
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(() => database.dispose())

  it('keeps the new session: the browser is signed in afterwards', async () => {
    const h = organizationHarness(database.connection.db)
    const grace = await h.signUp('Grace Stale')
    // The session ends elsewhere (a password reset revokes them all), but the browser still sends its cookie.
    await database.connection.db.execute(sql`delete from sessions`)
    const signIn = await h.call('/sign-in/email', { body: { email: grace.email, password }, cookie: grace.cookie })
    expect(signIn.status).toBe(200)
    expect(signIn.cookie, 'the answer sets a session cookie with a value').toMatch(/hatch\.session_token=[^;\s]+/)
    const session = await h.call<{ user: { email: string } } | null>('/get-session', { cookie: signIn.cookie })
    expect(session.body?.user.email).toBe(grace.email)
  })
})
