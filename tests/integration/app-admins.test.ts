import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setAppRole } from '#/server/auth/app-admins'
import { createAuth } from '#/server/auth/auth'
import { users } from '#/server/db/schema'
import { authRequest } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

delete process.env.SMTP_URL

describe.each(coreEngines)('app admins on %s', (engine) => {
  let database: FreshDatabase
  const roleOf = async (email: string) =>
    (await database.connection.db.select({ role: users.role }).from(users).where(eq(users.email, email)))[0]?.role

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    const auth = createAuth(database.connection.db)
    // A guest first: guests never become app admins, so the first real account still does.
    await authRequest(auth, '/sign-in/anonymous', { body: {}, ip: '203.0.113.20' })
    for (const [index, email] of ['first@example.com', 'second@example.com'].entries()) {
      const response = await authRequest(auth, '/sign-up/email', {
        body: { name: 'Someone', email, password: 'signup-2026' },
        ip: `203.0.113.${21 + index}`,
      })
      expect(response.status).toBe(200)
    }
  })
  afterAll(() => database.dispose())

  it('makes the first account of a fresh install an app admin, and nobody after it', async () => {
    expect(await roleOf('first@example.com')).toBe('admin')
    expect(await roleOf('second@example.com')).toBe('user')
  })

  it('grants and revokes the role by email address (npm run admin), whatever its case', async () => {
    const db = database.connection.db
    expect(await setAppRole(db, 'Second@Example.com', 'admin')).toBe(true)
    expect(await roleOf('second@example.com')).toBe('admin')
    expect(await setAppRole(db, 'second@example.com', 'user')).toBe(true)
    expect(await roleOf('second@example.com')).toBe('user')
  })

  it('says so when no account has the address, and changes nobody', async () => {
    expect(await setAppRole(database.connection.db, 'nobody@example.com', 'admin')).toBe(false)
    expect(await roleOf('second@example.com')).toBe('user')
  })
})

describe.each(coreEngines)('the first-account rule fires once in an installation’s life, on %s', (engine) => {
  let database: FreshDatabase
  const db = () => database.connection.db
  const adminCount = async () => (await db().select().from(users).where(eq(users.role, 'admin'))).length

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(() => database.dispose())

  it('of eight sign-ups racing on a fresh install exactly one becomes an app admin', async () => {
    const auth = createAuth(db())
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        authRequest(auth, '/sign-up/email', {
          body: { name: `Racer ${index}`, email: `racer${index}@example.com`, password: 'signup-2026' },
          ip: `203.0.113.${40 + index}`,
        }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200))
    expect(await adminCount()).toBe(1)
  })

  it('never fires again, not even once every admin is gone', async () => {
    const auth = createAuth(db())
    await db().update(users).set({ role: 'user' })
    const answer = await authRequest(auth, '/sign-up/email', {
      body: { name: 'Late Comer', email: 'late@example.com', password: 'signup-2026' },
      ip: '203.0.113.60',
    })
    expect(answer.status).toBe(200)
    await db().delete(users)
    const afterEveryoneLeft = await authRequest(auth, '/sign-up/email', {
      body: { name: 'Later Still', email: 'later@example.com', password: 'signup-2026' },
      ip: '203.0.113.61',
    })
    expect(afterEveryoneLeft.status).toBe(200)
    expect(await adminCount(), 'the operator names the next admin with npm run admin').toBe(0)
  })
})
