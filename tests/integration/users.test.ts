import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { impersonationCookie } from '#/lib/impersonation'
import { auditLog, emailOutbox, members, sessions, users } from '#/server/db/schema'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { authRequest, testOrigin } from './auth-requests'
import { type OrganizationHarness, organizationHarness, type Person, password } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

interface UserRow {
  id: string
  name: string
  email: string
  role: string
  banned: boolean
  emailVerified: boolean
}
interface UserPage {
  items: UserRow[]
  nextCursor?: string
  previousCursor?: string
}

describe.each(coreEngines)('Users (app admins) on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let admin: Person
  let otherAdmin: Person
  let user: Person
  const db = () => database.connection.db

  const list = (person: Person | undefined, input: Record<string, unknown> = {}) =>
    h.trpc<UserPage>('query', 'users.list', person?.cookie, input)
  const mutate = (path: string, person: Person | undefined, input: Record<string, unknown>) =>
    h.trpc<unknown>('mutation', `users.${path}`, person?.cookie, input)
  const audit = async (userId: string) =>
    (await db().select().from(auditLog).where(eq(auditLog.targetUserId, userId))).map((entry) => entry.action)
  const signIn = (email: string, secret = password) =>
    h.call<{ token?: string }>('/sign-in/email', { body: { email, password: secret } })
  const liveSessions = async (userId: string) => db().select().from(sessions).where(eq(sessions.userId, userId))

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    // The first account of a fresh install is an app admin.
    admin = await h.signUp('Ada Admin')
    otherAdmin = await h.signUp('Otto Other')
    await db().update(users).set({ role: 'admin' }).where(eq(users.id, otherAdmin.id))
    user = await h.signUp('Uma User')
  })
  afterAll(() => database.dispose())

  it('refuses a signed-out caller (401) and anyone but an app admin (403), changing nothing', async () => {
    const calls: [kind: 'query' | 'mutation', path: string, input: Record<string, unknown>][] = [
      ['query', 'users.list', {}],
      ['query', 'users.count', {}],
      ['query', 'users.get', { userId: admin.id }],
      ['mutation', 'users.create', { name: 'Eve', email: 'eve@example.com', role: 'admin', password: '' }],
      ['mutation', 'users.setRole', { userId: user.id, role: 'admin' }],
      ['mutation', 'users.ban', { userId: admin.id, reason: 'coup', duration: 'forever' }],
      ['mutation', 'users.unban', { userId: admin.id }],
      ['mutation', 'users.setPassword', { userId: admin.id, newPassword: 'taken-over1' }],
      ['mutation', 'users.revokeAllSessions', { userId: admin.id }],
      ['mutation', 'users.sendPasswordEmail', { userId: admin.id }],
      ['mutation', 'users.sendVerificationEmail', { userId: admin.id }],
      ['mutation', 'users.remove', { userId: admin.id }],
    ]
    for (const [kind, path, input] of calls) {
      expect((await h.trpc(kind, path, undefined, input)).error?.code, `${path} signed out`).toBe('UNAUTHORIZED')
      expect((await h.trpc(kind, path, user.cookie, input)).error?.appCode, `${path} as a user`).toBe('APP_ADMIN_ONLY')
    }
    const [stored] = await db().select().from(users).where(eq(users.id, admin.id))
    expect(stored).toMatchObject({ role: 'admin', banned: false })
    expect((await signIn(admin.email)).status).toBe(200)
    expect(await db().select().from(auditLog)).toEqual([])
  })

  it("refuses Better Auth's admin endpoints called from a browser, so every change goes through the audited API", async () => {
    const answer = await h.call('/admin/ban-user', {
      body: { userId: user.id, banReason: 'quiet' },
      cookie: admin.cookie,
    })
    expect(answer.status).toBe(403)
    expect(answer.code).toBe('USE_THE_CONSOLE_FOR_USERS')
    const [stored] = await db().select().from(users).where(eq(users.id, user.id))
    expect(stored?.banned).toBe(false)
  })

  it('lists accounts with search (name, email, username, Chinese too), filters, sort and stable pages', async () => {
    const chinese = await h.signUp('王小明', { email: 'xiaoming@example.com' })
    const all = await list(admin, { sort: 'name', direction: 'asc' })
    expect(all.data?.items.map((row) => row.name)).toEqual(['Ada Admin', 'Otto Other', 'Uma User', '王小明'])
    expect((await list(admin, { q: '小明' })).data?.items.map((row) => row.id)).toEqual([chinese.id])
    expect((await list(admin, { q: 'UMA.user@' })).data?.items.map((row) => row.id)).toEqual([user.id])
    expect((await list(admin, { q: '%' })).data?.items).toEqual([])
    expect(
      (await list(admin, { role: 'admin', sort: 'name', direction: 'asc' })).data?.items.map((r) => r.name),
    ).toEqual(['Ada Admin', 'Otto Other'])
    expect((await list(admin, { verified: 'yes' })).data?.items).toEqual([])
    const today = new Date().toISOString().slice(0, 10)
    expect((await list(admin, { joinedFrom: today, joinedTo: today })).data?.items).toHaveLength(4)
    expect((await list(admin, { joinedTo: '2000-01-01' })).data?.items).toEqual([])
    expect((await list(admin, { joinedFrom: 'yesterday' })).error?.code).toBe('BAD_REQUEST')
    expect((await h.trpc<number>('query', 'users.count', admin.cookie, { role: 'user' })).data).toBe(2)

    // Two at a time: a user added meanwhile never shifts the pages already handed out.
    const first = await list(admin, { sort: 'name', direction: 'asc', limit: 2 })
    expect(first.data?.items.map((row) => row.name)).toEqual(['Ada Admin', 'Otto Other'])
    await h.signUp('Bea Between')
    const second = await list(admin, { sort: 'name', direction: 'asc', limit: 2, after: first.data?.nextCursor })
    expect(second.data?.items.map((row) => row.name)).toEqual(['Uma User', '王小明'])
    // Back from there: the two now before it, the newcomer included.
    const back = await list(admin, { sort: 'name', direction: 'asc', limit: 2, before: second.data?.previousCursor })
    expect(back.data?.items.map((row) => row.name)).toEqual(['Bea Between', 'Otto Other'])
    expect((await list(admin, { after: 'not-a-cursor' })).error?.appCode).toBe('INVALID_CURSOR')

    // Guests stay out of the list unless asked for.
    const guest = await h.call<{ user: { id: string } }>('/sign-in/anonymous', { body: {} })
    expect(guest.status, JSON.stringify(guest.body)).toBe(200)
    expect((await list(admin, { kind: 'guests' })).data?.items.map((row) => row.id)).toEqual([guest.body.user.id])
    expect((await list(admin)).data?.items.map((row) => row.id)).not.toContain(guest.body.user.id)
  })

  it('shows a user with organizations, live sessions and how they sign in', async () => {
    const answer = await h.trpc<{
      user: UserRow
      organizations: { name: string; role: string }[]
      sessions: unknown[]
      signInMethods: string[]
      isSelf: boolean
    }>('query', 'users.get', admin.cookie, { userId: user.id })
    expect(answer.data?.user).toMatchObject({ name: 'Uma User', email: user.email, role: 'user', banned: false })
    expect(answer.data?.organizations).toEqual([
      expect.objectContaining({ name: "Uma User's workspace", role: 'owner' }),
    ])
    expect(answer.data?.sessions.length).toBeGreaterThan(0)
    expect(answer.data?.signInMethods).toEqual(['credential'])
    expect(answer.data?.isSelf).toBe(false)
    expect((await h.trpc('query', 'users.get', admin.cookie, { userId: 'nobody' })).error?.appCode).toBe(
      'USER_NOT_FOUND',
    )
  })

  it('bans a user: every session ends, sign-in says why and until when, their API keys stop; unban restores', async () => {
    const victim = await h.signUp('Vic Victim')
    const key = await h.call<{ key: string }>('/api-key/create', { body: { name: 'script' }, cookie: victim.cookie })
    expect(key.status).toBe(200)
    const meWithKey = async () => {
      const request = new Request(`${testOrigin}/api/trpc/account.me`, { headers: { 'x-api-key': key.body.key } })
      return (await handleTrpcRequest(request, db())).status
    }
    expect(await meWithKey()).toBe(200)

    const refused = await mutate('ban', admin, { userId: victim.id, reason: ' ', duration: 'forever' })
    expect(refused.error?.fieldErrors?.reason).toEqual(['validation_required'])
    expect((await mutate('ban', admin, { userId: admin.id, reason: 'x', duration: 'forever' })).error?.appCode).toBe(
      'YOU_CANNOT_BAN_YOURSELF',
    )

    expect(
      (await mutate('ban', admin, { userId: victim.id, reason: 'Spam in the forum', duration: '7d' })).error,
    ).toBeUndefined()
    expect(await liveSessions(victim.id)).toEqual([])
    const session = await h.call('/get-session', { cookie: victim.cookie })
    expect(session.body).toBeNull()
    const attempt = await h.call<{ banReason: string; banExpires: string }>('/sign-in/email', {
      body: { email: victim.email, password },
    })
    expect(attempt.status).toBe(403)
    expect(attempt.code).toBe('BANNED_USER')
    expect(attempt.body.banReason).toBe('Spam in the forum')
    const until = new Date(attempt.body.banExpires).getTime() - Date.now()
    expect(until).toBeGreaterThan(6.9 * 24 * 3600_000)
    expect(until).toBeLessThan(7.1 * 24 * 3600_000)
    // A wrong password learns nothing about the ban.
    const wrong = await signIn(victim.email, 'wrong-password1')
    expect(wrong.code).toBe('INVALID_EMAIL_OR_PASSWORD')
    expect(await meWithKey()).toBe(401)
    expect((await list(admin, { status: 'banned' })).data?.items.map((row) => row.id)).toEqual([victim.id])

    expect((await mutate('unban', admin, { userId: victim.id })).error).toBeUndefined()
    expect((await signIn(victim.email)).status).toBe(200)
    expect(await meWithKey()).toBe(200)
    expect(await audit(victim.id)).toEqual(['user_banned', 'user_unbanned'])
  })

  it('changes the app role, and never leaves the app without an admin', async () => {
    expect((await mutate('setRole', admin, { userId: user.id, role: 'owner' })).error?.code).toBe('BAD_REQUEST')
    expect((await mutate('setRole', admin, { userId: user.id, role: 'admin' })).error).toBeUndefined()
    expect((await h.trpc('query', 'users.list', user.cookie, {})).error).toBeUndefined()
    expect((await mutate('setRole', admin, { userId: user.id, role: 'user' })).error).toBeUndefined()
    expect((await h.trpc('query', 'users.list', user.cookie, {})).error?.appCode).toBe('APP_ADMIN_ONLY')

    expect((await mutate('setRole', admin, { userId: otherAdmin.id, role: 'user' })).error).toBeUndefined()
    const last = await mutate('setRole', admin, { userId: admin.id, role: 'user' })
    expect(last.error?.appCode).toBe('LAST_APP_ADMIN')
    expect((await list(admin)).error).toBeUndefined()
    expect((await mutate('setRole', admin, { userId: otherAdmin.id, role: 'admin' })).error).toBeUndefined()
    expect(await audit(user.id)).toEqual(['role_changed', 'role_changed'])
  })

  it('sets a password (policy applies), revokes one session or all', async () => {
    const person = await h.signUp('Pat Password')
    const weak = await mutate('setPassword', admin, { userId: person.id, newPassword: 'lettersonly' })
    expect(weak.error?.fieldErrors?.newPassword).toEqual(['validation_password_letter_number'])
    expect(
      (await mutate('setPassword', admin, { userId: person.id, newPassword: 'new-secret9' })).error,
    ).toBeUndefined()
    expect((await signIn(person.email)).code).toBe('INVALID_EMAIL_OR_PASSWORD')
    expect((await signIn(person.email, 'new-secret9')).status).toBe(200)

    const [one, two] = await liveSessions(person.id)
    expect(two).toBeDefined()
    expect(
      (await mutate('revokeSession', admin, { userId: person.id, sessionId: one?.id ?? '' })).error,
    ).toBeUndefined()
    expect((await liveSessions(person.id)).map((row) => row.id)).toEqual([two?.id])
    const stranger = await mutate('revokeSession', admin, { userId: admin.id, sessionId: two?.id ?? '' })
    expect(stranger.error?.appCode).toBe('SESSION_NOT_FOUND')
    expect((await mutate('revokeAllSessions', admin, { userId: person.id })).error).toBeUndefined()
    expect(await liveSessions(person.id)).toEqual([])
    expect(await audit(person.id)).toEqual(['password_set', 'session_revoked', 'sessions_revoked'])
  })

  it('creates users: with a password they sign in; without one, an email lets them choose it', async () => {
    const invalid = await mutate('create', admin, { name: '', email: 'nope', role: 'user', password: 'short' })
    expect(Object.keys(invalid.error?.fieldErrors ?? {}).sort()).toEqual(['email', 'name', 'password'])

    const made = await mutate('create', admin, {
      name: 'Carl Created',
      email: 'carl@example.com',
      role: 'user',
      password: 'given-secret7',
    })
    expect(made.error).toBeUndefined()
    expect((await signIn('carl@example.com', 'given-secret7')).status).toBe(200)
    const taken = await mutate('create', admin, { name: 'Carl', email: 'carl@example.com', role: 'user', password: '' })
    expect(taken.error?.appCode).toBe('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')

    const before = (await db().select().from(emailOutbox)).length
    const answer = await h.trpc<{ id: string }>('mutation', 'users.create', admin.cookie, {
      name: 'Nina New',
      email: 'nina@example.com',
      role: 'admin',
      password: '',
    })
    expect(answer.error).toBeUndefined()
    const mail = (await db().select().from(emailOutbox)).slice(before)
    expect(mail.map((email) => email.to)).toEqual(['nina@example.com'])
    expect(mail[0]?.text).toMatch(/choose a password/i)
    const link = /https?:\/\/\S+reset-password\S+/.exec(mail[0]?.text ?? '')?.[0]
    expect(link).toBeDefined()
    const [stored] = await db().select().from(users).where(eq(users.email, 'nina@example.com'))
    expect(stored?.role).toBe('admin')
    expect(await audit(stored?.id ?? '')).toEqual(['user_created', 'password_email_sent'])
  })

  it('sends a verification email to an unverified address, and a password email', async () => {
    const person = await h.signUp('Lin Li')
    const before = (await db().select().from(emailOutbox)).length
    const response = await mutate('sendVerificationEmail', admin, { userId: person.id })
    expect(response.error).toBeUndefined()
    const mail = (await db().select().from(emailOutbox)).slice(before)
    expect(mail.map((email) => email.to)).toEqual([person.email])
    await db().update(users).set({ emailVerified: true }).where(eq(users.id, person.id))
    const again = await mutate('sendVerificationEmail', admin, { userId: person.id })
    expect(again.error?.appCode).toBe('EMAIL_ALREADY_VERIFIED')
    expect((await mutate('sendPasswordEmail', admin, { userId: person.id })).error).toBeUndefined()
    // Sent from a Chinese page, the email is in Chinese.
    const fromChinese = await handleTrpcRequest(
      new Request(`${testOrigin}/api/trpc/users.sendPasswordEmail`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: admin.cookie,
          origin: testOrigin,
          referer: `${testOrigin}/zh/console/users`,
        },
        body: JSON.stringify({ json: { userId: person.id } }),
      }),
      db(),
    )
    expect(fromChinese.status).toBe(200)
    const subjects = (await db().select().from(emailOutbox)).slice(before).map((email) => email.subject)
    expect(subjects.slice(-2)).toEqual(['Reset your Hatch password', '重置你的 Hatch 密码'])
    expect(await audit(person.id)).toEqual(['verification_email_sent', 'password_email_sent', 'password_email_sent'])
  })

  it('deletes a user; their organizations pass to the next admin or go with them; never yourself', async () => {
    const leaving = await h.signUp('Lee Leaving')
    const stayer = await h.signUp('Sam Stayer')
    const shared = await h.createOrganization(leaving, 'Shared Co', 'shared-co')
    await h.join(shared, leaving, stayer, 'admin')
    expect((await mutate('remove', admin, { userId: admin.id })).error?.appCode).toBe('YOU_CANNOT_REMOVE_YOURSELF')
    expect((await mutate('remove', admin, { userId: leaving.id })).error).toBeUndefined()
    expect(await db().select().from(users).where(eq(users.id, leaving.id))).toEqual([])
    const remaining = await db().select().from(members).where(eq(members.organizationId, shared))
    expect(remaining.map((member) => [member.userId, member.role])).toEqual([[stayer.id, 'owner']])
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.targetEmail, leaving.email))
    expect(entry).toMatchObject({ action: 'user_deleted', actorName: 'Ada Admin', targetUserId: null })
    // Their sessions ended with them.
    expect((await h.call('/get-session', { cookie: leaving.cookie })).body).toBeNull()
  })

  it('deletes a user all at once or not at all: when the deletion fails, the hand-over is undone too', async () => {
    const leaving = await h.signUp('Fay Failing')
    const stayer = await h.signUp('Sid Staying')
    const shared = await h.createOrganization(leaving, 'Undo Co', 'undo-co')
    await h.join(shared, leaving, stayer, 'admin')
    // The database refuses to delete this one account (as a lost connection or a constraint would, half way).
    await db().execute(
      sql.raw(`create function refuse_deleting_fay() returns trigger language plpgsql as $$
        begin raise exception 'refused on purpose'; end $$`),
    )
    await db().execute(
      sql.raw(`create trigger refuse_deleting_fay before delete on users for each row
        when (old.id = '${leaving.id}') execute function refuse_deleting_fay()`),
    )
    try {
      const before = await db().select().from(members).where(eq(members.organizationId, shared))
      const failed = await mutate('remove', admin, { userId: leaving.id })
      expect(failed.error, 'the deletion failed').toBeDefined()
      expect(await db().select().from(users).where(eq(users.id, leaving.id))).toHaveLength(1)
      expect(await db().select().from(members).where(eq(members.organizationId, shared)), 'no hand-over').toEqual(
        before,
      )
      expect(await db().select().from(auditLog).where(eq(auditLog.targetEmail, leaving.email))).toEqual([])
    } finally {
      await db().execute(sql.raw('drop trigger refuse_deleting_fay on users'))
      await db().execute(sql.raw('drop function refuse_deleting_fay()'))
    }
    expect((await mutate('remove', admin, { userId: leaving.id })).error).toBeUndefined()
  })

  it('impersonates for an hour at most, with the banner cookie and the audit log; never another admin', async () => {
    const target = await h.signUp('Ivy Impersonated')
    const refused = await h.call('/admin/impersonate-user', { body: { userId: otherAdmin.id }, cookie: admin.cookie })
    expect(refused.code).toBe('YOU_CANNOT_IMPERSONATE_ADMINS')
    const byUser = await h.call('/admin/impersonate-user', { body: { userId: target.id }, cookie: user.cookie })
    expect(byUser.status).toBe(403)

    const started = await h.call<{ session: { expiresAt: string; impersonatedBy: string } }>(
      '/admin/impersonate-user',
      {
        body: { userId: target.id },
        cookie: admin.cookie,
      },
    )
    expect(started.status).toBe(200)
    expect(started.body.session.impersonatedBy).toBe(admin.id)
    const lasts = new Date(started.body.session.expiresAt).getTime() - Date.now()
    expect(lasts).toBeLessThanOrEqual(3600_000)
    expect(lasts).toBeGreaterThan(3500_000)
    expect(started.cookie).toContain(`${impersonationCookie}=`)
    expect(decodeURIComponent(started.cookie)).toContain('Ivy Impersonated')

    // The browser now holds the impersonation session and, in a cookie of its own, the admin's.
    const cookies = started.cookie
    const asTarget = await h.call<{ user: { id: string } }>('/get-session', { cookie: cookies })
    expect(asTarget.body.user.id).toBe(target.id)
    const stopped = await authRequest(h.auth, '/admin/stop-impersonating', { body: {}, cookie: cookies })
    expect(stopped.status).toBe(200)
    expect(((await stopped.json()) as { user: { id: string } }).user.id).toBe(admin.id)
    // The banner's cookie is cleared with it.
    expect(stopped.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^hatch\.impersonating=;.*Max-Age=0/))
    expect(await audit(target.id)).toEqual(['impersonation_started', 'impersonation_stopped'])
  })
})
