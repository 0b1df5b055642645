import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { authForDatabase, createAuth } from '#/server/auth/auth'
import { forgetRememberedAccess, forgettingAccessOnChange } from '#/server/auth/organization-access'
import { readSession } from '#/server/auth/session-reads'
import { members, sessions, users } from '#/server/db/schema'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { authRequest, testOrigin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

const cacheSeconds = 60
// The app's own auth (the one tRPC asks) caches too in this file; the other test files run with it off.
process.env.SESSION_CACHE_SECONDS = String(cacheSeconds)

/** A browser's cookie jar: every answer's Set-Cookie replaces or clears what it names. */
class CookieJar {
  private readonly cookies = new Map<string, string>()
  take(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? ''
      const name = pair.slice(0, pair.indexOf('='))
      const value = pair.slice(pair.indexOf('=') + 1)
      const expired = value === '' || /max-age=0/i.test(line)
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }
  get(name: string): string | undefined {
    return this.cookies.get(name)
  }
  set(name: string, value: string): void {
    this.cookies.set(name, value)
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

describe.each(coreEngines)('the session cookie cache on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>

  let signUps = 0
  // Sign-ups are limited per address; each person here comes from their own.
  const nextIp = () => `198.51.100.${++signUps}`
  const signUp = async (name: string, email: string) => {
    const jar = new CookieJar()
    const response = jar.take(
      await authRequest(auth, '/sign-up/email', { body: { name, email, password: 'cache-2026' }, ip: nextIp() }),
    )
    expect(response.status).toBe(200)
    return jar
  }
  /** A procedure over HTTP with the jar's cookies, through the same handler as /api/trpc. */
  const trpc = (jar: CookieJar, kind: 'query' | 'mutation', path: string, input: unknown) =>
    handleTrpcRequest(
      new Request(
        `${testOrigin}/api/trpc/${path}${kind === 'query' ? `?input=${encodeURIComponent(JSON.stringify({ json: input }))}` : ''}`,
        {
          method: kind === 'query' ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json', origin: testOrigin, cookie: jar.header() },
          body: kind === 'mutation' ? JSON.stringify({ json: input }) : undefined,
        },
      ),
      database.connection.db,
    )
  /** The user's id, by their address. */
  const userIdOf = async (email: string) => {
    const [user] = await database.connection.db.select({ id: users.id }).from(users).where(eq(users.email, email))
    return user?.id ?? ''
  }
  /**
   * Someone else who signed up elsewhere, made a member of the owner's workspace (the only organization the owner is
   * in): the member `organizations.transferOwnership`, a change its owner may make, would hand it to.
   */
  const heirOf = async (ownerId: string, name: string, email: string) => {
    await signUp(name, email)
    const [workspace] = await database.connection.db
      .select({ organizationId: members.organizationId })
      .from(members)
      .where(eq(members.userId, ownerId))
    const [heir] = await database.connection.db
      .insert(members)
      .values({
        id: `mem_${name.toLowerCase()}`,
        organizationId: workspace?.organizationId ?? '',
        userId: await userIdOf(email),
        role: 'member',
        createdAt: new Date(),
      })
      .returning({ id: members.id })
    return heir?.id ?? ''
  }
  /** The roles a member holds, by member id (undefined once the membership is gone). */
  const roleOf = async (memberId: string) =>
    (await database.connection.db.select({ role: members.role }).from(members).where(eq(members.id, memberId)))[0]?.role
  const sessionOf = async (jar: CookieJar) => {
    const response = jar.take(await authRequest(auth, '/get-session', { cookie: jar.header() }))
    expect(response.status).toBe(200)
    return (await response.json()) as { user: { name: string; email: string } } | null
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = createAuth(database.connection.db, { sessionCacheSeconds: cacheSeconds })
  })
  afterEach(() => {
    vi.useRealTimers()
  })
  afterAll(() => database.dispose())

  it('answers session checks from a signed copy, so a session revoked elsewhere lasts until the copy lapses', async () => {
    const jar = await signUp('Ada', 'ada-cache@example.com')
    expect((await sessionOf(jar))?.user.email).toBe('ada-cache@example.com')
    expect(jar.get('hatch.session_data'), 'the first check writes the signed copy').toBeTruthy()
    // Another device revokes this session: the row is gone, but this device's copy is still within its minute.
    await database.connection.db.delete(sessions)
    expect((await sessionOf(jar))?.user.email).toBe('ada-cache@example.com')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + (cacheSeconds + 1) * 1000)
    expect(await sessionOf(jar), 'once the copy lapses, the database has the last word').toBeNull()
  })

  it('checks every change against the database: a session revoked elsewhere changes nothing', async () => {
    const jar = await signUp('Fay', 'fay-cache@example.com')
    await sessionOf(jar)
    expect(jar.get('hatch.session_data')).toBeTruthy()
    await database.connection.db.delete(sessions)
    const change = jar.take(
      await authRequest(auth, '/update-user', { body: { name: 'Mallory' }, cookie: jar.header() }),
    )
    expect(change.status).toBe(401)
    const [row] = await database.connection.db
      .select({ name: users.name })
      .from(users)
      .where(eq(users.email, 'fay-cache@example.com'))
    expect(row?.name).toBe('Fay')
  })

  it('lets a revoked session read through the API until its copy lapses, and change nothing at once', async () => {
    const jar = await signUp('Gus', 'gus-cache@example.com')
    const heir = await heirOf(await userIdOf('gus-cache@example.com'), 'Hugo', 'hugo-cache@example.com')
    await sessionOf(jar)
    await database.connection.db.delete(sessions)
    expect(
      (await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status,
      'a read within the copy’s minute',
    ).toBe(200)
    const handed = await trpc(jar, 'mutation', 'organizations.transferOwnership', { memberId: heir })
    expect(handed.status, 'a change checks the database').toBe(401)
    expect(await roleOf(heir), 'the workspace was not handed over').toBe('member')
  })

  it('signs out everywhere at once on the device that asks', async () => {
    const jar = await signUp('Bea', 'bea-cache@example.com')
    const revoked = jar.take(await authRequest(auth, '/revoke-sessions', { body: {}, cookie: jar.header() }))
    expect(revoked.status).toBe(200)
    expect(await sessionOf(jar)).toBeNull()
  })

  it('shows a change made on this device at once (the copy is rewritten with it)', async () => {
    const jar = await signUp('Cai', 'cai-cache@example.com')
    const renamed = jar.take(
      await authRequest(auth, '/update-user', { body: { name: 'Cai Lun' }, cookie: jar.header() }),
    )
    expect(renamed.status).toBe(200)
    expect((await sessionOf(jar))?.user.name).toBe('Cai Lun')
  })

  it('moves to a new organization at once, though Better Auth does not rewrite the copy when it creates one', async () => {
    const jar = await signUp('Eve', 'eve-cache@example.com')
    await sessionOf(jar)
    expect(jar.get('hatch.session_data')).toBeTruthy()
    const created = jar.take(
      await authRequest(auth, '/organization/create', {
        body: { name: 'Eve Labs', slug: 'eve-labs-cache' },
        cookie: jar.header(),
      }),
    )
    expect(created.status).toBe(200)
    const { id } = (await created.json()) as { id: string }
    const response = jar.take(await authRequest(auth, '/get-session', { cookie: jar.header() }))
    const session = (await response.json()) as { session: { activeOrganizationId: string } }
    expect(session.session.activeOrganizationId).toBe(id)
  })

  it('never trusts a copy someone edited: the session is read from the database instead', async () => {
    const jar = await signUp('Dan', 'dan-cache@example.com')
    await sessionOf(jar)
    const copy = jar.get('hatch.session_data') ?? ''
    const decoded = Buffer.from(decodeURIComponent(copy), 'base64url').toString('utf8')
    expect(decoded).toContain('"name":"Dan"')
    const forged = Buffer.from(
      decoded.replace('"role":"user"', '"role":"admin"').replace('"name":"Dan"', '"name":"Mallory"'),
    )
    jar.set('hatch.session_data', encodeURIComponent(forged.toString('base64url')))
    const session = await sessionOf(jar)
    expect(session?.user.name).toBe('Dan')
    const [row] = await database.connection.db
      .select({ role: users.role })
      .from(users)
      .where(eq(users.email, 'dan-cache@example.com'))
    expect(row?.role).toBe('user')
  })

  it('gives an API caller whose copy lapsed a fresh one, reading the session once for a whole batch', async () => {
    const jar = await signUp('Joan', 'joan-cache@example.com')
    expect(jar.get('hatch.session_data'), 'sign-up leaves no copy').toBeUndefined()
    const reads = vi.spyOn(authForDatabase(database.connection.db).api, 'getSession')
    const batch = encodeURIComponent(JSON.stringify({ 0: { json: { limit: 5 } }, 1: { json: { limit: 5 } } }))
    const answer = await handleTrpcRequest(
      new Request(`${testOrigin}/api/trpc/organizations.members,organizations.members?batch=1&input=${batch}`, {
        headers: { cookie: jar.header() },
      }),
      database.connection.db,
    )
    expect(answer.status).toBe(200)
    expect(reads, 'one read of the session store for both queries').toHaveBeenCalledTimes(1)
    reads.mockRestore()
    jar.take(answer)
    expect(jar.get('hatch.session_data'), 'the answer carries the fresh copy').toBeTruthy()

    // The copy is the session's word at that moment, no more: revoked elsewhere, it lapses as any other copy does.
    await database.connection.db.delete(sessions).where(eq(sessions.userId, await userIdOf('joan-cache@example.com')))
    expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + (cacheSeconds + 1) * 1000)
    const lapsed = await trpc(jar, 'query', 'organizations.members', { limit: 5 })
    expect(lapsed.status).toBe(401)
  })

  describe('session reads for pages and queries (remembered while the copy lasts)', () => {
    const headersOf = (jar: CookieJar) => new Headers({ cookie: jar.header() })

    it('answers as Better Auth does, and asks it once per copy', async () => {
      const jar = await signUp('Hal', 'hal-cache@example.com')
      const answered = await sessionOf(jar)
      const getSession = vi.spyOn(auth.api, 'getSession')
      try {
        const first = await readSession(auth, headersOf(jar))
        const second = await readSession(auth, headersOf(jar))
        expect(JSON.parse(JSON.stringify(first.session))).toEqual(answered)
        expect(JSON.parse(JSON.stringify(second.session))).toEqual(answered)
        expect(getSession, 'the second read is answered from memory').toHaveBeenCalledTimes(1)
      } finally {
        getSession.mockRestore()
      }
    })

    it('answers a visitor whose request can name no session as signed out, without asking Better Auth', async () => {
      const getSession = vi.spyOn(auth.api, 'getSession')
      try {
        const visitor = await readSession(auth, new Headers({ cookie: 'lang=zh; theme=dark; hatch_hint=1' }))
        expect(visitor).toEqual({ session: null, headers: null })
        await readSession(auth, new Headers())
        expect(getSession, 'no cookie of ours, no API key, no bearer token').not.toHaveBeenCalled()
        // Anything that can name a session still goes to Better Auth, whatever it says.
        await readSession(auth, new Headers({ cookie: 'lang=zh; hatch.session_token=forged' }))
        await readSession(auth, new Headers({ cookie: '__Secure-hatch.session_data=forged' }))
        await readSession(auth, new Headers({ authorization: 'Bearer forged' }))
        expect(getSession).toHaveBeenCalledTimes(3)
      } finally {
        getSession.mockRestore()
      }
    })

    it('keeps a revoked session readable exactly as long as its copy, then reads the database', async () => {
      const jar = await signUp('Ida', 'ida-cache@example.com')
      await sessionOf(jar)
      expect((await readSession(auth, headersOf(jar))).session?.user.email).toBe('ida-cache@example.com')
      await database.connection.db.delete(sessions)
      expect((await readSession(auth, headersOf(jar))).session?.user.email).toBe('ida-cache@example.com')
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.now() + (cacheSeconds + 1) * 1000)
      expect((await readSession(auth, headersOf(jar))).session).toBeNull()
    })

    it('never remembers an edited copy, and shows a change made on this device at once', async () => {
      const jar = await signUp('Jon', 'jon-cache@example.com')
      await sessionOf(jar)
      const copy = jar.get('hatch.session_data') ?? ''
      const decoded = Buffer.from(decodeURIComponent(copy), 'base64url').toString('utf8')
      jar.set(
        'hatch.session_data',
        encodeURIComponent(Buffer.from(decoded.replace('"name":"Jon"', '"name":"Mallory"')).toString('base64url')),
      )
      for (let attempt = 0; attempt < 2; attempt++) {
        const read = await readSession(auth, headersOf(jar))
        expect(read.session?.user.name).toBe('Jon')
        expect(read.headers?.getSetCookie().join(), 'the edited copy is replaced').toContain('hatch.session_data=')
      }
      jar.set('hatch.session_data', copy)
      expect((await readSession(auth, headersOf(jar))).session?.user.name).toBe('Jon')
      const renamed = jar.take(
        await authRequest(auth, '/update-user', { body: { name: 'Jon Snow' }, cookie: jar.header() }),
      )
      expect(renamed.status).toBe(200)
      expect((await readSession(auth, headersOf(jar))).session?.user.name).toBe('Jon Snow')
    })

    it('remembers nothing when the cache is off', async () => {
      const uncached = createAuth(database.connection.db, { sessionCacheSeconds: 0 })
      const jar = await signUp('Kim', 'kim-cache@example.com')
      await sessionOf(jar)
      await readSession(uncached, headersOf(jar))
      await database.connection.db.delete(sessions)
      expect((await readSession(uncached, headersOf(jar))).session).toBeNull()
    })
  })

  describe('organization access for reads (remembered while the copy lasts)', () => {
    /** Signs up, opens the workspace's members once (so its access is remembered), and returns the user's id. */
    const memberWhoReadMembers = async (name: string, email: string) => {
      const jar = await signUp(name, email)
      await sessionOf(jar)
      expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status).toBe(200)
      return { jar, userId: await userIdOf(email) }
    }
    const removeFromEveryOrganization = (userId: string) =>
      database.connection.db.delete(members).where(eq(members.userId, userId))

    it('lets someone removed on another server read until the copy lapses; a change is refused at once', async () => {
      const { jar, userId } = await memberWhoReadMembers('Lin', 'lin-access@example.com')
      const heir = await heirOf(userId, 'Leo', 'leo-access@example.com')
      await removeFromEveryOrganization(userId)
      expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status, 'remembered for a read').toBe(
        200,
      )
      const handed = await trpc(jar, 'mutation', 'organizations.transferOwnership', { memberId: heir })
      expect(handed.status, 'a change checks the membership in the database').toBe(403)
      expect(await roleOf(heir), 'the workspace was not handed over').toBe('member')
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.now() + (cacheSeconds + 1) * 1000)
      const later = await trpc(jar, 'query', 'organizations.members', { limit: 5 })
      expect(later.status, 'once the copy’s lifetime is over, the database has the last word').toBe(403)
    })

    it('forgets at once when anything that may change access runs on this server', async () => {
      const { jar, userId } = await memberWhoReadMembers('Mei', 'mei-access@example.com')
      await removeFromEveryOrganization(userId)
      const request = (method: string, pathname: string) => new Request(`${testOrigin}${pathname}`, { method })
      await forgettingAccessOnChange(request('GET', '/en/console'), async () => undefined)
      expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status, 'a read forgets nothing').toBe(
        200,
      )
      await forgettingAccessOnChange(request('POST', '/api/auth/organization/remove-member'), async () => undefined)
      expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status, 'a change forgets').toBe(403)
    })

    it('does not keep what a read loaded while a change was running', async () => {
      const { jar, userId } = await memberWhoReadMembers('Ned', 'ned-access@example.com')
      forgetRememberedAccess()
      let finishChange: () => void = () => undefined
      const change = forgettingAccessOnChange(
        new Request(`${testOrigin}/api/trpc/organizations.removeMember`, { method: 'POST' }),
        () => new Promise<void>((resolve) => (finishChange = resolve)),
      )
      expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status, 'read during the change').toBe(
        200,
      )
      await removeFromEveryOrganization(userId)
      finishChange()
      await change
      expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status).toBe(403)
    })

    it('remembers that someone is not a member for no time at all', async () => {
      const { jar, userId } = await memberWhoReadMembers('Ola', 'ola-access@example.com')
      const [membership] = await database.connection.db.select().from(members).where(eq(members.userId, userId))
      await removeFromEveryOrganization(userId)
      forgetRememberedAccess()
      expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status).toBe(403)
      if (membership) await database.connection.db.insert(members).values(membership)
      expect((await trpc(jar, 'query', 'organizations.members', { limit: 5 })).status, 'added back: seen at once').toBe(
        200,
      )
    })
  })
})
