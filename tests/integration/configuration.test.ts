import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, sessions, siteSettingChanges, users } from '#/server/db/schema'
import { getSiteSettings, readSiteSettings } from '#/server/settings'
import { type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

interface Configuration {
  settings: Record<string, unknown>
  signInMethod: string | null
}

describe.each(coreEngines)('Configuration on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let admin: Person
  let user: Person
  let current: Record<string, unknown>
  const db = () => database.connection.db

  const update = (person: Person | undefined, change: Record<string, unknown>) =>
    h.trpc<{ changed: string[] }>('mutation', 'configuration.update', person?.cookie, { ...current, ...change })
  const changes = async () => db().select().from(siteSettingChanges)

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    admin = await h.signUp('Ada Admin')
    user = await h.signUp('Uma User')
    const { updatedAt: _, ...settings } = await readSiteSettings(db())
    current = settings
  })
  afterAll(() => database.dispose())

  it('is for app admins only: signed out is 401, anyone else 403, and nothing changes', async () => {
    for (const [kind, path, input] of [
      ['query', 'configuration.get', undefined],
      ['query', 'configuration.changes', {}],
      ['mutation', 'configuration.update', { ...current, productName: 'Taken' }],
    ] as const) {
      expect((await h.trpc(kind, path, undefined, input)).error?.code, `${path} signed out`).toBe('UNAUTHORIZED')
      expect((await h.trpc(kind, path, user.cookie, input)).error?.appCode, `${path} as a user`).toBe('APP_ADMIN_ONLY')
    }
    expect((await readSiteSettings(db())).productName).toBe('Hatch')
    expect(await changes()).toEqual([])
  })

  it('an admin demoted in the database loses these powers at their next request, while their session copy says admin', async () => {
    expect((await h.trpc('query', 'configuration.get', admin.cookie)).error).toBeUndefined()
    const [before] = await db().select({ role: users.role }).from(users).where(eq(users.id, admin.id))
    await db().update(users).set({ role: 'user' }).where(eq(users.id, admin.id))
    try {
      for (const [kind, path, input] of [
        ['query', 'configuration.get', undefined],
        ['mutation', 'configuration.update', { ...current, productName: 'Taken' }],
      ] as const) {
        const answer = await h.trpc(kind, path, admin.cookie, input)
        expect(answer.error?.appCode, `${path} once demoted`).toBe('APP_ADMIN_ONLY')
      }
    } finally {
      await db().update(users).set({ role: before?.role }).where(eq(users.id, admin.id))
    }
    expect((await h.trpc('query', 'configuration.get', admin.cookie)).error).toBeUndefined()
    expect(await changes()).toEqual([])
  })

  it('refuses invalid values beside their fields, and stores nothing', async () => {
    for (const [change, field, message] of [
      [{ productName: ' ' }, 'productName', 'validation_required'],
      [{ productName: 'x'.repeat(61) }, 'productName', 'validation_product_name_too_long'],
      [{ sourceRepositoryUrl: 'javascript:alert(1)' }, 'sourceRepositoryUrl', 'validation_url_invalid'],
      [{ docsEditBranch: 'main..dev' }, 'docsEditBranch', 'validation_branch_invalid'],
      [{ analyticsTimeZone: 'Mars/Olympus_Mons' }, 'analyticsTimeZone', 'validation_time_zone_invalid'],
      [{ analyticsTimeZone: "UTC'; drop table users; --" }, 'analyticsTimeZone', 'validation_time_zone_invalid'],
    ] as const) {
      const answer = await update(admin, change)
      expect(answer.error?.fieldErrors?.[field], JSON.stringify(change)).toEqual([message])
    }
    expect((await update(admin, { defaultTheme: 'neon' })).error?.code).toBe('BAD_REQUEST')
    expect(await changes()).toEqual([])
  })

  it('stores a change, takes effect on the next request, and records who changed what from what', async () => {
    await getSiteSettings(db())
    const answer = await update(admin, { productName: 'Bookshelf', defaultTheme: 'dark' })
    expect(answer.data?.changed).toEqual(['productName', 'defaultTheme'])
    expect((await getSiteSettings(db())).productName, 'no stale cached copy').toBe('Bookshelf')
    const record = await h.trpc<{
      items: { userName: string; setting: string; oldValue: unknown; newValue: unknown }[]
    }>('query', 'configuration.changes', admin.cookie, {})
    expect(
      record.data?.items.map(({ userName, setting, oldValue, newValue }) => [userName, setting, oldValue, newValue]),
    ).toEqual([
      ['Ada Admin', 'defaultTheme', 'system', 'dark'],
      ['Ada Admin', 'productName', 'Hatch', 'Bookshelf'],
    ])
    current = { ...current, productName: 'Bookshelf', defaultTheme: 'dark' }
    // Sending the same values again records nothing.
    expect((await update(admin, {})).data?.changed).toEqual([])
    expect(await changes()).toHaveLength(2)
  })

  it('moves the Dashboard time zone', async () => {
    const answer = await update(admin, { analyticsTimeZone: 'Asia/Shanghai' })
    expect(answer.data?.changed).toEqual(['analyticsTimeZone'])
    expect((await getSiteSettings(db())).analyticsTimeZone).toBe('Asia/Shanghai')
    const publicSettings = await h.trpc<{ analyticsTimeZone: string }>('query', 'settings.public', undefined)
    expect(publicSettings.data?.analyticsTimeZone, 'every page cuts days there').toBe('Asia/Shanghai')
    current = { ...current, analyticsTimeZone: 'Asia/Shanghai' }
  })

  it('never switches off the last way to sign in', async () => {
    const everythingOff = {
      authEmailPassword: false,
      authUsername: false,
      authGithub: false,
      authGoogle: false,
      authGenericOauth: false,
      authMagicLink: false,
      authEmailOtp: false,
      authPasskey: false,
      confirmSignInMethodOff: true,
    }
    const answer = await update(admin, everythingOff)
    expect(answer.error?.appCode).toBe('LAST_SIGN_IN_METHOD')
    expect((await readSiteSettings(db())).authEmailPassword).toBe(true)
  })

  it('asks before switching off the method this admin signed in with', async () => {
    const config = await h.trpc<Configuration>('query', 'configuration.get', admin.cookie)
    expect(config.data?.signInMethod).toBe('emailPassword')
    const unconfirmed = await update(admin, { authEmailPassword: false })
    expect(unconfirmed.error?.appCode).toBe('CONFIRM_SIGN_IN_METHOD_OFF')
    expect((await readSiteSettings(db())).authEmailPassword).toBe(true)
    // Switching off another method needs no confirmation.
    expect((await update(admin, { authMagicLink: false })).error).toBeUndefined()
    current = { ...current, authMagicLink: false }
    const confirmed = await update(admin, { authEmailPassword: false, confirmSignInMethodOff: true })
    expect(confirmed.error).toBeUndefined()
    expect((await readSiteSettings(db())).authEmailPassword).toBe(false)
    current = { ...current, authEmailPassword: true }
    expect((await update(admin, {})).error).toBeUndefined()
  })

  it('closed sign-up creates no account by any method, and opens again', async () => {
    expect((await update(admin, { signUpOpen: false })).error).toBeUndefined()
    current = { ...current, signUpOpen: false }
    const refused = await h.call('/sign-up/email', {
      body: { name: 'Late', email: 'late@example.com', password: 'engine1843' },
    })
    expect([refused.status, refused.code]).toEqual([403, 'SIGN_UP_CLOSED'])
    const guest = await h.call('/sign-in/anonymous', { body: {} })
    expect(guest.code).toBe('SIGN_UP_CLOSED')
    // Existing accounts still sign in.
    const signIn = await h.call('/sign-in/email', { body: { email: user.email, password: 'engine1843' } })
    expect(signIn.status).toBe(200)
    expect((await update(admin, { signUpOpen: true })).error).toBeUndefined()
    current = { ...current, signUpOpen: true }
    const late = await h.call('/sign-up/email', {
      body: { name: 'Late', email: 'late@example.com', password: 'engine1843' },
    })
    expect(late.status).toBe(200)
  })

  it('with email verification required, a password sign-in waits for a verified address (a new link is sent)', async () => {
    expect((await update(admin, { emailVerificationRequired: true })).error).toBeUndefined()
    current = { ...current, emailVerificationRequired: true }
    const mailTo = async (to: string) => (await db().select().from(emailOutbox)).filter((mail) => mail.to === to)

    const signedUp = await h.call<{ token: string | null; user: { id: string } }>('/sign-up/email', {
      body: { name: 'Vera Verify', email: 'vera@example.com', password: 'engine1843' },
    })
    expect(signedUp.status).toBe(200)
    expect(signedUp.body.token, 'sign-up signs nobody in').toBeNull()
    expect(signedUp.cookie).not.toContain('session_token=')
    expect(await db().select().from(sessions).where(eq(sessions.userId, signedUp.body.user.id))).toEqual([])
    expect(await mailTo('vera@example.com')).toHaveLength(1)

    // A wrong password is just wrong; the right one is refused until the address is verified, with a new link.
    const wrong = await h.call('/sign-in/email', { body: { email: 'vera@example.com', password: 'wrong-one1' } })
    expect(wrong.code).toBe('INVALID_EMAIL_OR_PASSWORD')
    const refused = await h.call('/sign-in/email', { body: { email: 'vera@example.com', password: 'engine1843' } })
    expect([refused.status, refused.code]).toEqual([403, 'EMAIL_NOT_VERIFIED'])
    const mails = await mailTo('vera@example.com')
    expect(mails).toHaveLength(2)
    const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[^\s"<]+/.exec(mails[1]?.text ?? '')?.[0]
    expect(link).toBeDefined()
    const verified = await h.call(
      new URL(link ?? '').pathname.replace('/api/auth', '') + new URL(link ?? '').search,
      {},
    )
    expect(verified.status).toBeLessThan(400)
    const signedIn = await h.call('/sign-in/email', { body: { email: 'vera@example.com', password: 'engine1843' } })
    expect(signedIn.status).toBe(200)

    // Switched off again, an unverified account signs in as before.
    expect((await update(admin, { emailVerificationRequired: false })).error).toBeUndefined()
    current = { ...current, emailVerificationRequired: false }
    const relaxed = await h.call('/sign-in/email', { body: { email: user.email, password: 'engine1843' } })
    expect(relaxed.status).toBe(200)
  })
})
