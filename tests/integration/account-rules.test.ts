import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteAfterSignInMinutes } from '#/lib/account-rules'
import { createAuth } from '#/server/auth/auth'
import { emailOutbox, sessions, users } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { updateSiteSettings } from '#/server/settings'
import { authRequest, cookieHeaderOf, errorCodeOf } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// Without SMTP every email stays in the outbox table, where the tests read the codes.
delete process.env.SMTP_URL

describe.each(coreEngines)('account rules the server enforces on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>
  let clientNumber = 0

  // Each request from its own address, so rate limits never answer in place of the rule under test.
  const send = (path: string, options: { body?: unknown; cookie?: string } = {}) =>
    authRequest(auth, path, { ...options, ip: `203.0.113.${++clientNumber % 250}` })
  const userExists = async (email: string) =>
    (await database.connection.db.select().from(users).where(eq(users.email, email))).length === 1
  const emailsTo = (address: string) =>
    database.connection.db.select().from(emailOutbox).where(eq(emailOutbox.to, address))

  const signUpWithPassword = async (email: string) => {
    const response = await send('/sign-up/email', { body: { name: 'Ada', email, password: 'engine1843' } })
    expect(response.status).toBe(200)
    return cookieHeaderOf(response)
  }
  /** An account made by an emailed code: it has no password. */
  const signUpWithCode = async (email: string) => {
    expect((await send('/email-otp/send-verification-otp', { body: { email, type: 'sign-in' } })).status).toBe(200)
    const [message] = await emailsTo(email)
    const otp = message?.subject.match(/\d{6}/)?.[0]
    const response = await send('/sign-in/email-otp', { body: { email, otp } })
    expect(response.status).toBe(200)
    return cookieHeaderOf(response)
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = createAuth(database.connection.db)
  })
  afterAll(() => database.dispose())

  describe('deleting the account needs re-authentication', () => {
    it('an account with a password gives it: without it, or with a wrong one, nothing is deleted', async () => {
      const cookie = await signUpWithPassword('keeps@example.com')
      const withoutPassword = await send('/delete-user', { body: {}, cookie })
      expect(withoutPassword.status).toBe(400)
      expect(await errorCodeOf(withoutPassword)).toBe('DELETE_ACCOUNT_NEEDS_PASSWORD')
      const madeUpToken = await send('/delete-user', { body: { token: 'guessed' }, cookie })
      expect(await errorCodeOf(madeUpToken)).toBe('DELETE_ACCOUNT_NEEDS_PASSWORD')
      const wrongPassword = await send('/delete-user', { body: { password: 'wrong-one1' }, cookie })
      expect(await errorCodeOf(wrongPassword)).toBe('INVALID_PASSWORD')
      expect(await userExists('keeps@example.com')).toBe(true)

      const deleted = await send('/delete-user', { body: { password: 'engine1843' }, cookie })
      expect(deleted.status).toBe(200)
      expect(await userExists('keeps@example.com')).toBe(false)
    })

    it(`an account without a password can be deleted within ${deleteAfterSignInMinutes} minutes of signing in, not later`, async () => {
      const staleCookie = await signUpWithCode('stale@example.com')
      // The sign-in happened a minute past the allowed window.
      const [user] = await database.connection.db.select().from(users).where(eq(users.email, 'stale@example.com'))
      const longAgo = new Date(Date.now() - (deleteAfterSignInMinutes + 1) * 60_000)
      await database.connection.db
        .update(sessions)
        .set({ createdAt: longAgo })
        .where(eq(sessions.userId, user?.id ?? ''))
      const refused = await send('/delete-user', { body: {}, cookie: staleCookie })
      expect(refused.status).toBe(403)
      expect(await errorCodeOf(refused)).toBe('DELETE_ACCOUNT_NEEDS_RECENT_SIGN_IN')
      expect(await userExists('stale@example.com')).toBe(true)

      const freshCookie = await signUpWithCode('fresh@example.com')
      const deleted = await send('/delete-user', { body: {}, cookie: freshCookie })
      expect(deleted.status).toBe(200)
      expect(await userExists('fresh@example.com')).toBe(false)
    })
  })

  it('a new password needs a letter and a number wherever it is set, not only at sign-up', async () => {
    const cookie = await signUpWithPassword('changes@example.com')
    const refused = await send('/change-password', {
      body: { currentPassword: 'engine1843', newPassword: 'onlyletters' },
      cookie,
    })
    expect(refused.status).toBe(400)
    expect(await errorCodeOf(refused)).toBe('PASSWORD_NEEDS_LETTER_AND_NUMBER')
    const byCode = await send('/email-otp/reset-password', {
      body: { email: 'changes@example.com', otp: '123456', password: '12345678' },
    })
    expect(await errorCodeOf(byCode)).toBe('PASSWORD_NEEDS_LETTER_AND_NUMBER')
    // The old password still works.
    const signIn = await send('/sign-in/email', { body: { email: 'changes@example.com', password: 'engine1843' } })
    expect(signIn.status).toBe(200)
  })

  it('refuses an empty name and a picture that was not uploaded here, and stores neither', async () => {
    const emptyName = await send('/sign-up/email', {
      body: { name: '   ', email: 'noname@example.com', password: 'engine1843' },
    })
    expect(emptyName.status).toBe(400)
    expect(await errorCodeOf(emptyName)).toBe('PROFILE_NAME_REQUIRED')
    expect(await userExists('noname@example.com')).toBe(false)

    const cookie = await signUpWithPassword('profile@example.com')
    for (const image of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      `https://example.com/${'a'.repeat(2000)}`,
      // Any other server's picture would tell it who looked at the page, and when.
      'https://example.com/ada.png',
      `https://example.com/api/files/avatars/someone/0123456789abcdef-256.webp`,
    ]) {
      const refused = await send('/update-user', { body: { image }, cookie })
      expect(refused.status, image.slice(0, 20)).toBe(400)
      expect(await errorCodeOf(refused)).toBe('INVALID_IMAGE_URL')
    }
    const blankName = await send('/update-user', { body: { name: '' }, cookie })
    expect(await errorCodeOf(blankName)).toBe('PROFILE_NAME_REQUIRED')
    const [stored] = await database.connection.db.select().from(users).where(eq(users.email, 'profile@example.com'))
    expect(stored).toMatchObject({ name: 'Ada', image: null })

    const uploaded = `${getEnv().APP_URL}/api/files/avatars/someone/0123456789abcdef-256.webp`
    const fine = await send('/update-user', { body: { image: uploaded }, cookie })
    expect(fine.status).toBe(200)
  })

  it('with email codes switched off, no code is sent for any purpose and none resets a password', async () => {
    await signUpWithPassword('nocodes@example.com')
    await updateSiteSettings(database.connection.db, { authEmailOtp: false })
    try {
      for (const [path, body] of [
        ['/email-otp/send-verification-otp', { email: 'nocodes@example.com', type: 'forget-password' }],
        ['/email-otp/request-password-reset', { email: 'nocodes@example.com' }],
        ['/email-otp/reset-password', { email: 'nocodes@example.com', otp: '123456', password: 'engine1844' }],
      ] as const) {
        const refused = await send(path, { body })
        expect(await errorCodeOf(refused), path).toBe('SIGN_IN_METHOD_IS_NOT_ENABLED')
      }
      const codeEmails = (await emailsTo('nocodes@example.com')).filter((message) => /\d{6}/.test(message.subject))
      expect(codeEmails).toEqual([])
    } finally {
      await updateSiteSettings(database.connection.db, { authEmailOtp: true })
    }
  })
})
