import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authErrorMessages } from '#/lib/auth-error-messages'
import { describeAuthError } from '#/lib/auth-errors'
import { clientIpHeader, createAuth } from '#/server/auth/auth'
import { users } from '#/server/db/schema'
import { updateSiteSettings } from '#/server/settings'
import { testOrigin as origin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

/** Random text: unlike a repeated letter, PostgreSQL cannot compress it below its index size limit. */
const randomText = (length: number) => randomBytes(length).toString('base64url').slice(0, length)
const hugeText = randomText(200_000)
const hugeEmail = `${randomText(10_000)}@example.com`

// What a confused or hostile client may send; every endpoint must answer each with 4xx and a code.
const malformedBodies: Record<string, string> = {
  'no JSON': '{"email": ',
  null: 'null',
  'a list': '[]',
  'a number': '42',
  'no fields': '{}',
  'wrong types': JSON.stringify({
    email: 42,
    password: true,
    name: {},
    type: 7,
    code: 123456,
    response: 'signature',
    callbackURL: 5,
    expiresIn: 'soon',
  }),
  'lists for fields': JSON.stringify({ email: ['ada@example.com'], password: ['x'], name: ['Ada'], code: ['123456'] }),
  'an invalid email': JSON.stringify({ email: 'not-an-email', password: 'engine1843', name: 'Ada', type: 'sign-in' }),
  'huge strings': JSON.stringify({
    email: hugeEmail,
    password: hugeText,
    name: hugeText,
    type: 'sign-in',
    code: hugeText,
    response: hugeText,
    callbackURL: hugeText,
  }),
  'a huge email': JSON.stringify({ email: hugeEmail, password: 'engine1843', name: 'Ada', type: 'sign-in' }),
}

const endpoints = [
  '/sign-in/email',
  '/sign-up/email',
  '/sign-in/magic-link',
  '/email-otp/send-verification-otp',
  '/two-factor/verify-totp',
  '/passkey/verify-authentication',
  '/api-key/create',
  '/sign-in/username',
  '/sign-in/email-otp',
  '/request-password-reset',
]

describe.each(coreEngines)('Better Auth answers user mistakes on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>
  let clientNumber = 0

  // Each request from its own address, so the rate limits never answer in place of the endpoint.
  const send = (path: string, body: string) => {
    clientNumber += 1
    return auth.handler(
      new Request(`${origin}/api/auth${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin,
          [clientIpHeader]: `10.${Math.floor(clientNumber / 250) % 250}.${clientNumber % 250}.7`,
        },
        body,
      }),
    )
  }
  const answerOf = async (response: Response) => {
    const text = await response.text()
    const body = text ? (JSON.parse(text) as { code?: string; message?: string }) : {}
    return { status: response.status, code: body.code, message: body.message }
  }

  beforeAll(async () => {
    delete process.env.SMTP_URL
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    // The methods under test are on, so their endpoints (not the method switch) answer.
    await updateSiteSettings(database.connection.db, {
      authEmailPassword: true,
      authUsername: true,
      authMagicLink: true,
      authEmailOtp: true,
      authPasskey: true,
    })
    auth = createAuth(database.connection.db)
  })
  afterAll(() => database.dispose())

  it.each(endpoints)('answers malformed bodies on %s with 4xx and a translated code', async (path) => {
    for (const [kind, body] of Object.entries(malformedBodies)) {
      const answer = await answerOf(await send(path, body))
      const untranslated = 'untranslated'
      expect({ kind, status: answer.status, hasCode: Boolean(answer.code) }).toEqual({
        kind,
        status: expect.toSatisfy((status: number) => status >= 400 && status < 500),
        hasCode: true,
      })
      expect(describeAuthError({ code: answer.code, message: untranslated, status: answer.status }), kind).not.toBe(
        untranslated,
      )
    }
  })

  it('refuses a null sign-up body with a code instead of failing inside Better Auth', async () => {
    expect(await answerOf(await send('/sign-up/email', 'null'))).toMatchObject({
      status: 400,
      code: 'BODY_MUST_BE_AN_OBJECT',
    })
  })

  it('refuses an email address longer than any mailbox can have, before it reaches the database', async () => {
    const signUp = await send(
      '/sign-up/email',
      JSON.stringify({ name: 'Ada', email: hugeEmail, password: 'engine1843' }),
    )
    expect(await answerOf(signUp)).toMatchObject({ status: 400, code: 'INVALID_EMAIL' })
    expect(await database.connection.db.select().from(users).where(eq(users.email, hugeEmail))).toEqual([])
    const code = await send('/email-otp/send-verification-otp', JSON.stringify({ email: hugeEmail, type: 'sign-in' }))
    expect(await answerOf(code)).toMatchObject({ status: 400, code: 'INVALID_EMAIL' })
  })

  it('refuses a display name longer than the form allows, and accepts one at the limit', async () => {
    const signUp = (name: string, email: string) =>
      send('/sign-up/email', JSON.stringify({ name, email, password: 'engine1843' }))
    expect(await answerOf(await signUp('n'.repeat(101), 'long-name@example.com'))).toMatchObject({
      status: 400,
      code: 'NAME_TOO_LONG',
    })
    expect((await signUp('n'.repeat(100), 'full-name@example.com')).status).toBe(200)
  })

  it('has a translation for every code of the configured Better Auth', () => {
    const untranslated = Object.keys(auth.$ERROR_CODES).filter((code) => !Object.hasOwn(authErrorMessages, code))
    expect(untranslated).toEqual([])
  })
})
