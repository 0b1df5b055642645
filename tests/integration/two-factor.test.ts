import { type TOTP, URI } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuth } from '#/server/auth/auth'
import { hasPendingTwoFactorChallenge } from '#/server/auth/two-factor-challenge'
import { getEnv } from '#/server/env'
import { authRequest } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

const account = { name: 'Grace', email: 'grace@example.com', password: 'cobol-1959' }

/** The cookies a response sets that still hold a value (Better Auth clears others with an empty value). */
function cookiesSetBy(response: Response): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';')
    const separator = pair.indexOf('=')
    const value = pair.slice(separator + 1)
    if (value) cookies.set(pair.slice(0, separator), value)
  }
  return cookies
}

const cookieHeader = (cookies: Map<string, string>) =>
  [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')

describe.each(coreEngines)('two-factor authentication on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>
  let app: TOTP

  const post = (path: string, body: unknown, options: { ip?: string; cookie?: string } = {}) =>
    authRequest(auth, path, { body, cookie: options.cookie, ip: options.ip ?? '203.0.113.1' })
  const signIn = () =>
    post('/sign-in/email', { email: account.email, password: account.password }, { ip: '203.0.113.2' })

  beforeAll(async () => {
    delete process.env.SMTP_URL
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = createAuth(database.connection.db)
    const signedUp = await post('/sign-up/email', account)
    expect(signedUp.status).toBe(200)
    const session = cookieHeader(cookiesSetBy(signedUp))

    const enabled = await post('/two-factor/enable', { password: account.password }, { cookie: session })
    expect(enabled.status).toBe(200)
    const { totpURI } = (await enabled.json()) as { totpURI: string }
    app = URI.parse(totpURI) as TOTP
    const confirmed = await post('/two-factor/verify-totp', { code: app.generate() }, { cookie: session })
    expect(confirmed.status).toBe(200)
  })
  afterAll(() => database.dispose())

  it('gives no session for the password alone: only a challenge, which the app code completes once', async () => {
    const response = await signIn()
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp', 'otp'] })
    const cookies = cookiesSetBy(response)
    expect([...cookies.keys()]).toEqual(['hatch.two_factor'])
    const challenge = new Headers({ cookie: cookieHeader(cookies) })
    expect(await auth.api.getSession({ headers: challenge })).toBeNull()
    expect(await hasPendingTwoFactorChallenge(auth, challenge)).toBe(true)

    const verified = await post('/two-factor/verify-totp', { code: app.generate() }, { cookie: cookieHeader(cookies) })
    expect(verified.status).toBe(200)
    const session = cookiesSetBy(verified)
    expect(session.has('hatch.session_token')).toBe(true)
    const signedIn = await auth.api.getSession({ headers: new Headers({ cookie: cookieHeader(session) }) })
    expect(signedIn?.user.email).toBe(account.email)
    // The challenge is used up: neither the page nor another code accepts it.
    expect(await hasPendingTwoFactorChallenge(auth, challenge)).toBe(false)
    const replayed = await post('/two-factor/verify-totp', { code: app.generate() }, { cookie: cookieHeader(cookies) })
    expect(replayed.status).toBe(401)
  })

  it('does not take a forged or missing challenge cookie for a pending sign-in', async () => {
    const cookies = cookiesSetBy(await signIn())
    const genuine = cookies.get('hatch.two_factor') ?? ''
    const [value = '', signature = ''] = decodeURIComponent(genuine).split('.')
    // Another identifier under the genuine signature (the last character always changes, whatever it was).
    const otherLast = value.endsWith('x') ? 'y' : 'x'
    const forged = encodeURIComponent(`${value.slice(0, -1)}${otherLast}.${signature}`)
    expect(await hasPendingTwoFactorChallenge(auth, new Headers({ cookie: `hatch.two_factor=${genuine}` }))).toBe(true)
    expect(await hasPendingTwoFactorChallenge(auth, new Headers({ cookie: `hatch.two_factor=${forged}` }))).toBe(false)
    expect(await hasPendingTwoFactorChallenge(auth, new Headers())).toBe(false)
  })

  it('limits code attempts per client address with 429', async () => {
    const limit = getEnv().AUTH_SIGN_IN_LIMIT
    const statuses: number[] = []
    for (let attempt = 0; attempt <= limit; attempt++) {
      statuses.push((await post('/two-factor/verify-totp', { code: '000000' }, { ip: '203.0.113.9' })).status)
    }
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401))
    expect(statuses[limit]).toBe(429)
    // Another address is not affected.
    expect((await post('/two-factor/verify-totp', { code: '000000' }, { ip: '203.0.113.10' })).status).toBe(401)
  })
})
