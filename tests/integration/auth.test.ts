import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuth } from '#/server/auth/auth'
import { authRateLimits, emailOutbox } from '#/server/db/schema'
import { updateSiteSettings } from '#/server/settings'
import { authRequest, cookieHeaderOf, errorCodeOf as errorOf, testOrigin as origin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

describe.each(coreEngines)('Better Auth on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>

  const post = (path: string, body: unknown, ip = '198.51.100.1', headers: Record<string, string> = {}) =>
    authRequest(auth, path, { body, ip, headers })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = createAuth(database.connection.db)
    const created = await post('/sign-up/email', { name: 'Ada', email: 'ada@example.com', password: 'engine1843' })
    expect(created.status).toBe(200)
  })
  afterAll(() => database.dispose())

  it('answers a wrong password and an unknown user with the same code, so accounts cannot be probed', async () => {
    const wrong = await post(
      '/sign-in/email',
      { email: 'ada@example.com', password: 'wrong-password1' },
      '198.51.100.2',
    )
    expect(wrong.status).toBe(401)
    expect(await errorOf(wrong)).toBe('INVALID_EMAIL_OR_PASSWORD')
    const unknown = await post(
      '/sign-in/email',
      { email: 'nobody@example.com', password: 'engine1843' },
      '198.51.100.2',
    )
    expect(unknown.status).toBe(401)
    expect(await errorOf(unknown)).toBe('INVALID_EMAIL_OR_PASSWORD')
  })

  it('refuses a password without a digit on the server too, and creates no user', async () => {
    const response = await post('/sign-up/email', { name: 'Bob', email: 'bob@example.com', password: 'nodigitshere' })
    expect(response.status).toBe(400)
    expect(await errorOf(response)).toBe('PASSWORD_NEEDS_LETTER_AND_NUMBER')
    const signIn = await post('/sign-in/email', { email: 'bob@example.com', password: 'nodigitshere' }, '198.51.100.3')
    expect(await errorOf(signIn)).toBe('INVALID_EMAIL_OR_PASSWORD')
  })

  it('keeps emails in the outbox when no SMTP server is configured, in the language of the page', async () => {
    delete process.env.SMTP_URL
    const response = await post(
      '/sign-up/email',
      { name: '李雷', email: 'lilei@example.com', password: 'hanmeimei1' },
      '198.51.100.4',
      { referer: `${origin}/zh/sign-up` },
    )
    expect(response.status).toBe(200)
    const [email] = await database.connection.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, 'lilei@example.com'))
    expect(email?.subject).toBe('请确认你在 Hatch 的邮箱')
    expect(email?.text).toMatch(/\/api\/auth\/verify-email\?token=/)
    expect(email?.html).toContain('确认邮箱')
  })

  it('refuses methods switched off in site settings with their error codes, and allows them again', async () => {
    const db = database.connection.db
    await updateSiteSettings(db, { authUsername: false })
    const byUsername = await post('/sign-in/username', { username: 'ada', password: 'engine1843' }, '198.51.100.5')
    expect(await errorOf(byUsername)).toBe('USERNAME_SIGN_IN_IS_NOT_ENABLED')

    await updateSiteSettings(db, { authEmailPassword: false, authUsername: true })
    const signIn = await post('/sign-in/email', { email: 'ada@example.com', password: 'engine1843' }, '198.51.100.5')
    expect(signIn.status).toBe(400)
    expect(await errorOf(signIn)).toBe('EMAIL_AND_PASSWORD_IS_NOT_ENABLED')
    const signUp = await post('/sign-up/email', { name: 'Eve', email: 'eve@example.com', password: 'eve-12345' })
    expect(await errorOf(signUp)).toBe('EMAIL_AND_PASSWORD_IS_NOT_ENABLED')

    await updateSiteSettings(db, { authEmailPassword: true })
    const again = await post('/sign-in/email', { email: 'ada@example.com', password: 'engine1843' }, '198.51.100.5')
    expect(again.status).toBe(200)
  })

  it('limits sign-in attempts per client address with 429, in the database', async () => {
    // A different account each time: failures per account have their own limit (sign-in-throttle.test.ts).
    let guess = 0
    const attempt = (ip: string) =>
      post('/sign-in/email', { email: `guess-${guess++}@example.com`, password: 'wrong-password1' }, ip)
    const statuses: number[] = []
    for (let index = 0; index < 11; index++) statuses.push((await attempt('198.51.100.9')).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses[10]).toBe(429)
    // Another address is not affected.
    expect((await attempt('198.51.100.10')).status).toBe(401)
  })

  it('never limits or counts session checks: many people behind one address browse freely', async () => {
    const signedIn = await post('/sign-in/email', { email: 'ada@example.com', password: 'engine1843' }, '198.51.100.20')
    expect(signedIn.status).toBe(200)
    const cookie = cookieHeaderOf(signedIn)
    const counters = async () => (await database.connection.db.select().from(authRateLimits)).length
    const before = await counters()
    // Past AUTH_REQUEST_LIMIT (100 a minute), from one address.
    for (let index = 0; index < 150; index++) {
      const check = await authRequest(auth, '/get-session', { cookie, ip: '198.51.100.21' })
      expect(check.status, `session check ${index + 1}`).toBe(200)
    }
    expect(await counters(), 'no rate-limit counter is written for a session check').toBe(before)
    // The sensitive endpoints keep their limits (tested above for sign-in).
  })

  it('ignores redirects to other sites: the server refuses callback URLs off this origin, and sends nothing', async () => {
    const offSite = ['https://evil.example/phish', '//evil.example/phish', 'javascript:alert(1)']
    for (const [index, callbackURL] of offSite.entries()) {
      const ip = `198.51.100.${60 + index}`
      const magicLink = await post('/sign-in/magic-link', { email: 'ada@example.com', callbackURL }, ip)
      expect(magicLink.status, `magic link to ${callbackURL}`).toBe(403)
      expect(await errorOf(magicLink)).toBe('INVALID_CALLBACK_URL')
      const signIn = await post('/sign-in/email', { email: 'ada@example.com', password: 'engine1843', callbackURL }, ip)
      expect(signIn.status, `sign-in to ${callbackURL}`).toBe(403)
      expect(await errorOf(signIn)).toBe('INVALID_CALLBACK_URL')
    }
    const magicLinks = await database.connection.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, 'ada@example.com'))
    expect(magicLinks.filter((email) => email.text.includes('/magic-link/verify'))).toEqual([])
  })
})
