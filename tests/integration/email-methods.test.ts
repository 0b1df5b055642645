import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuth } from '#/server/auth/auth'
import { emailOutbox } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { updateSiteSettings } from '#/server/settings'
import { authRequest, cookieHeaderOf, errorCodeOf as errorOf, testOrigin as origin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// Without SMTP the app keeps every email in the outbox table, so the tests can count what was sent.
delete process.env.SMTP_URL

describe.each(coreEngines)('email sign-in methods on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>

  const post = (path: string, body: unknown, ip: string, headers: Record<string, string> = {}) =>
    authRequest(auth, path, { body, ip, headers })
  const emailsTo = async (address: string) =>
    database.connection.db.select().from(emailOutbox).where(eq(emailOutbox.to, address))
  const sendMagicLink = (email: string, ip: string) =>
    post('/sign-in/magic-link', { email, callbackURL: '/en/console', errorCallbackURL: '/en/magic-link' }, ip)
  const sendSignInCode = (email: string, ip: string) =>
    post('/email-otp/send-verification-otp', { email, type: 'sign-in' }, ip)

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = createAuth(database.connection.db)
  })
  afterAll(() => database.dispose())

  it('refuses magic links while they are switched off, and sends no email', async () => {
    const db = database.connection.db
    await updateSiteSettings(db, { authMagicLink: false })
    const refused = await sendMagicLink('off-link@example.com', '198.51.100.20')
    expect(refused.status).toBe(400)
    expect(await errorOf(refused)).toBe('SIGN_IN_METHOD_IS_NOT_ENABLED')
    expect(await emailsTo('off-link@example.com')).toHaveLength(0)

    await updateSiteSettings(db, { authMagicLink: true })
    const sent = await sendMagicLink('off-link@example.com', '198.51.100.20')
    expect(sent.status).toBe(200)
    const [email] = await emailsTo('off-link@example.com')
    expect(email?.text).toMatch(/\/api\/auth\/magic-link\/verify\?token=/)
  })

  it('refuses email codes while they are switched off, for sending and for signing in, and sends no email', async () => {
    const db = database.connection.db
    await updateSiteSettings(db, { authEmailOtp: false })
    const refusedSend = await sendSignInCode('off-code@example.com', '198.51.100.21')
    expect(refusedSend.status).toBe(400)
    expect(await errorOf(refusedSend)).toBe('SIGN_IN_METHOD_IS_NOT_ENABLED')
    const refusedSignIn = await post(
      '/sign-in/email-otp',
      { email: 'off-code@example.com', otp: '123456' },
      '198.51.100.21',
    )
    expect(refusedSignIn.status).toBe(400)
    expect(await errorOf(refusedSignIn)).toBe('SIGN_IN_METHOD_IS_NOT_ENABLED')
    expect(await emailsTo('off-code@example.com')).toHaveLength(0)

    await updateSiteSettings(db, { authEmailOtp: true })
    const sent = await sendSignInCode('off-code@example.com', '198.51.100.21')
    expect(sent.status).toBe(200)
    const [email] = await emailsTo('off-code@example.com')
    expect(email?.text).toMatch(/\b\d{6}\b/)
  })

  it.each([
    ['magic links', sendMagicLink, '198.51.100.30'],
    ['sign-in codes', sendSignInCode, '198.51.100.31'],
  ] as const)('limits %s to AUTH_EMAIL_LIMIT a minute per client address with 429', async (_, send, ip) => {
    const limit = getEnv().AUTH_EMAIL_LIMIT
    const address = `limited-${ip}@example.com`
    const statuses: number[] = []
    for (let attempt = 0; attempt <= limit; attempt++) statuses.push((await send(address, ip)).status)
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(200))
    expect(statuses[limit]).toBe(429)
    // The refused request sent nothing; another address is not affected.
    expect(await emailsTo(address)).toHaveLength(limit)
    expect((await send(address, `${ip}0`)).status).toBe(200)
  })

  it('sends a dead magic link to the error page the client named, not to a raw error', async () => {
    const response = await authRequest(
      auth,
      `/magic-link/verify?${new URLSearchParams({ token: 'not-a-real-token', callbackURL: '/en/console', errorCallbackURL: '/en/magic-link?redirect=%2Fen%2Fconsole' })}`,
      { ip: '198.51.100.40' },
    )
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('location') ?? '', origin)
    expect(location.pathname).toBe('/en/magic-link')
    expect(location.searchParams.get('error')).toBe('INVALID_TOKEN')
    expect(location.searchParams.get('redirect')).toBe('/en/console')
  })

  it('sends the change-of-email link to the new address, worded for a change, in the language of the page', async () => {
    const signUp = await post(
      '/sign-up/email',
      { name: 'Grace', email: 'grace@example.com', password: 'cobol1959' },
      '198.51.100.50',
    )
    expect(signUp.status).toBe(200)
    const cookie = cookieHeaderOf(signUp)
    const changed = await post(
      '/change-email',
      { newEmail: 'grace.hopper@example.com', callbackURL: '/zh/console/account' },
      '198.51.100.50',
      { cookie, referer: `${origin}/zh/console/account` },
    )
    expect(changed.status).toBe(200)
    const [email] = await emailsTo('grace.hopper@example.com')
    expect(email?.subject).toBe('请确认你在 Hatch 的新邮箱地址')
    expect(email?.text).toMatch(/\/api\/auth\/verify-email\?token=/)
    // The sign-up verification went to the old address with the sign-up wording.
    const [verification] = await emailsTo('grace@example.com')
    expect(verification?.subject).not.toBe(email?.subject)
  })

  it('names a user created from an email code after the address, until they choose a name', async () => {
    const address = 'ada.lovelace@example.com'
    expect((await sendSignInCode(address, '198.51.100.40')).status).toBe(200)
    const [email] = await emailsTo(address)
    const code = email?.subject.match(/\d{6}/)?.[0]
    const signedIn = await post('/sign-in/email-otp', { email: address, otp: code }, '198.51.100.40')
    expect(signedIn.status).toBe(200)
    expect(((await signedIn.json()) as { user: { name: string } }).user.name).toBe('ada.lovelace')
  })
})
