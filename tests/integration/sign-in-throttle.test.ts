import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, like, sql } from 'drizzle-orm'
import { type TOTP, URI } from 'otpauth'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { describeAuthError } from '#/lib/auth-errors'
import { overwriteGetLocale } from '#/paraglide/runtime'
import { createAuth } from '#/server/auth/auth'
import { signInLockEmailsSent, signInThrottlePolicy } from '#/server/auth/sign-in-throttle'
import { emailOutbox, signInThrottles, users } from '#/server/db/schema'
import { testPorts } from '../support/ports'
import { authRequest, cookieHeaderOf } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// Without SMTP every email stays in the outbox table, where the tests count them.
delete process.env.SMTP_URL

const owner = { name: 'Ada', email: 'ada@example.com', username: 'ada', password: 'engine-1843' }
const guarded = { name: 'Grace', email: 'grace@example.com', password: 'cobol-1959' }
const wrongPassword = 'not-the-password-1'
const { maxFailures } = signInThrottlePolicy

describe.each(coreEngines)('failed sign-ins limited per account on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>
  let totp: TOTP
  let backupCodes: string[]
  // Every attempt comes from an address of its own: no per-address limit ever applies.
  let nextAddress = 1
  const freshAddress = () => {
    const n = nextAddress++
    return `10.${Math.floor(n / 250) % 250}.${n % 250}.${engine === 'pglite' ? 1 : 2}`
  }

  const post = (path: string, body: unknown, options: { cookie?: string; headers?: Record<string, string> } = {}) =>
    authRequest(auth, path, { body, ip: freshAddress(), ...options })
  const signInEmail = (email: string, password: string, headers?: Record<string, string>) =>
    post('/sign-in/email', { email, password }, { headers })
  const lockEmailsTo = async (to: string) => {
    await signInLockEmailsSent()
    return database.connection.db
      .select()
      .from(emailOutbox)
      .where(
        sql`${emailOutbox.to} = ${to} and (${emailOutbox.subject} like ${'%failed sign-ins%'} or ${emailOutbox.subject} like ${'%登录失败%'})`,
      )
  }
  /** Ends every lock now, as if its minutes had passed (the count of locks in a row stays). */
  const endLocks = () =>
    database.connection.db.update(signInThrottles).set({ lockedUntil: sql`now() - interval '1 second'` })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = createAuth(database.connection.db)
    expect((await post('/sign-up/email', owner)).status).toBe(200)
    // A verified address: Better Auth drops the password of an unverified one when its mailbox signs in by a link.
    await database.connection.db.update(users).set({ emailVerified: true }).where(eq(users.email, owner.email))

    const signedUp = await post('/sign-up/email', guarded)
    expect(signedUp.status).toBe(200)
    const session = cookieHeaderOf(signedUp)
    const enabled = await post('/two-factor/enable', { password: guarded.password }, { cookie: session })
    expect(enabled.status).toBe(200)
    const setup = (await enabled.json()) as { totpURI: string; backupCodes: string[] }
    totp = URI.parse(setup.totpURI) as TOTP
    backupCodes = setup.backupCodes
    expect((await post('/two-factor/verify-totp', { code: totp.generate() }, { cookie: session })).status).toBe(200)
  })
  afterAll(async () => {
    await signInLockEmailsSent()
    await database.dispose()
  })

  it('locks an account after five wrong passwords from five addresses, even for the right password', async () => {
    for (let attempt = 1; attempt <= maxFailures; attempt++) {
      const refused = await signInEmail(owner.email, wrongPassword, { referer: 'http://localhost:3000/zh/sign-in' })
      expect(refused.status, `wrong password ${attempt}`).toBe(401)
    }
    const locked = await signInEmail(owner.email, owner.password)
    expect(locked.status).toBe(429)
    const retryAfter = Number(locked.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    const body = (await locked.json()) as { code?: string; retryAfterSeconds?: number }
    expect(body.code).toBe('ACCOUNT_TEMPORARILY_LOCKED')
    expect(body.retryAfterSeconds).toBe(retryAfter)
    // What the sign-in and two-factor pages show for it.
    const error = { ...body, status: 429 }
    overwriteGetLocale(() => 'zh')
    expect(describeAuthError(error)).toBe('该账户登录失败次数过多。请 1 分钟后再试，或通过“忘记密码？”设置新密码。')
    overwriteGetLocale(() => 'en')
    expect(describeAuthError(error)).toContain('Try again in 1 min')
    // The username and other spellings of the address name the same account.
    expect((await post('/sign-in/username', { username: 'ADA', password: owner.password })).status).toBe(429)
    expect((await signInEmail('ADA@Example.com', wrongPassword)).status).toBe(429)

    // One email for the lock, however many attempts it refused, in the language of the page that was used.
    const emails = await lockEmailsTo(owner.email)
    expect(emails).toHaveLength(1)
    expect(emails[0]?.subject).toBe('你的 Hatch 账户出现多次登录失败')
    expect(emails[0]?.text).toContain('1 分钟')
    expect(emails[0]?.text).toContain('/zh/forgot-password')

    // The lock runs out: the owner signs in again, and that success forgets the failures.
    await endLocks()
    expect((await signInEmail(owner.email, owner.password)).status).toBe(200)
    const [left] = await database.connection.db
      .select()
      .from(signInThrottles)
      .where(like(signInThrottles.key, 'user:%'))
    expect(left, 'a success clears the count').toBeUndefined()
  })

  it('resets the count on a successful sign-in outside a lock', async () => {
    for (let round = 1; round <= 2; round++) {
      for (let attempt = 1; attempt < maxFailures; attempt++) {
        expect((await signInEmail(owner.email, wrongPassword)).status).toBe(401)
      }
      expect((await signInEmail(owner.email, owner.password)).status, `round ${round}`).toBe(200)
    }
  })

  it('locks for longer while the failures go on, and sends one email per lock', async () => {
    for (const expectedMaxSeconds of [60, 120, 240]) {
      for (let attempt = 1; attempt <= maxFailures; attempt++) {
        expect((await signInEmail(owner.email, wrongPassword)).status).toBe(401)
      }
      const locked = await signInEmail(owner.email, wrongPassword)
      expect(locked.status).toBe(429)
      const retryAfter = Number(locked.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(expectedMaxSeconds / 2)
      expect(retryAfter).toBeLessThanOrEqual(expectedMaxSeconds)
      await endLocks()
    }
    // One from the first test, three from this one.
    expect(await lockEmailsTo(owner.email)).toHaveLength(4)
    expect((await signInEmail(owner.email, owner.password)).status).toBe(200)
  })

  it('answers an unknown address exactly as a known one, and emails nobody', async () => {
    const stranger = 'nobody@example.com'
    for (let attempt = 1; attempt <= maxFailures; attempt++) {
      const [known, unknown] = [
        await signInEmail(owner.email, wrongPassword),
        await signInEmail(stranger, wrongPassword),
      ]
      expect([unknown.status, await unknown.json()]).toEqual([known.status, await known.json()])
    }
    const known = await signInEmail(owner.email, owner.password)
    const unknown = await signInEmail(stranger, owner.password)
    expect(unknown.status).toBe(429)
    // The same pause, counted from each lock (a loaded machine may take a second or two between the two).
    const pause = (answer: Response) => Number(answer.headers.get('retry-after'))
    expect(Math.abs(pause(unknown) - pause(known)), 'seconds apart').toBeLessThanOrEqual(2)
    expect(await unknown.json()).toEqual(await known.json())
    expect(await lockEmailsTo(stranger)).toHaveLength(0)
    await endLocks()
    expect((await signInEmail(owner.email, owner.password)).status).toBe(200)
  })

  it('counts wrong two-factor and backup codes against the account behind the challenge', async () => {
    const challenge = async () => {
      const response = await signInEmail(guarded.email, guarded.password)
      expect(await response.json()).toMatchObject({ twoFactorRedirect: true })
      return cookieHeaderOf(response)
    }
    const wrongCode = () => (totp.generate().startsWith('0') ? '111111' : '000000')
    const first = await challenge()
    expect((await post('/two-factor/verify-totp', { code: wrongCode() }, { cookie: first })).status).toBe(401)
    expect((await post('/two-factor/verify-backup-code', { code: 'wrong-code' }, { cookie: first })).status).toBe(401)
    expect((await post('/two-factor/verify-totp', { code: wrongCode() }, { cookie: first })).status).toBe(401)
    const second = await challenge()
    expect((await post('/two-factor/verify-backup-code', { code: 'wrong-again' }, { cookie: second })).status).toBe(401)
    expect((await post('/two-factor/send-otp', {}, { cookie: second })).status).toBe(200)
    expect((await post('/two-factor/verify-otp', { code: wrongCode() }, { cookie: second })).status).toBe(401)

    // Five wrong codes, two challenges, five addresses: the right code, a backup code and the password wait.
    const locked = await post('/two-factor/verify-totp', { code: totp.generate() }, { cookie: second })
    expect(locked.status).toBe(429)
    expect(((await locked.json()) as { code?: string }).code).toBe('ACCOUNT_TEMPORARILY_LOCKED')
    const backup = await post('/two-factor/verify-backup-code', { code: backupCodes[0] }, { cookie: second })
    expect(backup.status).toBe(429)
    expect((await signInEmail(guarded.email, guarded.password)).status).toBe(429)
    expect(await lockEmailsTo(guarded.email)).toHaveLength(1)

    await endLocks()
    const verified = await post('/two-factor/verify-totp', { code: totp.generate() }, { cookie: second })
    expect(verified.status).toBe(200)
    expect(verified.headers.getSetCookie().some((cookie) => cookie.startsWith('hatch.session_token='))).toBe(true)
  })

  it('counts wrong email codes too, with wrong passwords, against the same account', async () => {
    const person = { name: 'Lin', email: 'lin@example.com', password: 'abacus-1654' }
    expect((await post('/sign-up/email', person)).status).toBe(200)
    expect((await signInEmail(person.email, wrongPassword)).status).toBe(401)
    expect((await signInEmail(person.email, wrongPassword)).status).toBe(401)
    const send = (type: string) => post('/email-otp/send-verification-otp', { email: person.email, type })
    expect((await send('sign-in')).status).toBe(200)
    expect((await post('/sign-in/email-otp', { email: person.email, otp: '000000' })).status).toBe(400)
    expect((await post('/sign-in/email-otp', { email: person.email, otp: '111111' })).status).toBe(400)
    expect((await send('email-verification')).status).toBe(200)
    expect((await post('/email-otp/verify-email', { email: person.email, otp: '222222' })).status).toBe(400)

    const [codeEmail] = await database.connection.db
      .select()
      .from(emailOutbox)
      .where(sql`${emailOutbox.to} = ${person.email} and ${emailOutbox.subject} like ${'%sign-in code%'}`)
      .orderBy(sql`${emailOutbox.id} desc`)
      .limit(1)
    const code = /\b(\d{6})\b/.exec(codeEmail?.text ?? '')?.[1]
    expect(code, 'the sign-in code email').toBeTruthy()
    const locked = await post('/sign-in/email-otp', { email: person.email, otp: code })
    expect(locked.status).toBe(429)
    expect(await lockEmailsTo(person.email)).toHaveLength(1)
  })

  it('answers hostile identifiers with 4xx, never a server error', async () => {
    const hostile = ['a'.repeat(1_000_000), 'ada\u0000@example.com', 'ada\u0000', '\ud800@example.com', '  ']
    for (const identifier of hostile) {
      const byEmail = await signInEmail(identifier, wrongPassword)
      const byUsername = await post('/sign-in/username', { username: identifier, password: wrongPassword })
      for (const answer of [byEmail, byUsername]) {
        expect(answer.status, JSON.stringify(identifier.slice(0, 20))).toBeGreaterThanOrEqual(400)
        expect(answer.status, JSON.stringify(identifier.slice(0, 20))).toBeLessThan(500)
      }
    }
  })

  it('lets no more than five guesses through when they all arrive at once', async () => {
    const email = 'racing@example.com'
    const answers = await Promise.all(Array.from({ length: 20 }, () => signInEmail(email, wrongPassword)))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 401)).toHaveLength(maxFailures)
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - maxFailures)
  })

  it('lifts the lock when the owner signs in by an emailed link', async () => {
    for (let attempt = 1; attempt <= maxFailures; attempt++) {
      expect((await signInEmail(owner.email, wrongPassword)).status).toBe(401)
    }
    expect((await signInEmail(owner.email, owner.password)).status).toBe(429)
    const asked = await post('/sign-in/magic-link', { email: owner.email, callbackURL: '/en/console' })
    expect(asked.status).toBe(200)
    const [linkEmail] = await database.connection.db
      .select()
      .from(emailOutbox)
      .where(sql`${emailOutbox.to} = ${owner.email} and ${emailOutbox.text} like ${'%/magic-link/verify%'}`)
      .orderBy(sql`${emailOutbox.id} desc`)
      .limit(1)
    const link = new URL(/https?:\/\/\S+\/magic-link\/verify\S+/.exec(linkEmail?.text ?? '')?.[0] ?? 'http://x/')
    const opened = await authRequest(auth, `/magic-link/verify${link.search}`, { ip: freshAddress() })
    expect(opened.headers.getSetCookie().some((cookie) => cookie.startsWith('hatch.session_token='))).toBe(true)
    expect((await signInEmail(owner.email, owner.password)).status).toBe(200)
  })

  it('lifts the lock when the owner chooses a new password through the emailed link', async () => {
    for (let attempt = 1; attempt <= maxFailures; attempt++) {
      expect((await signInEmail(owner.email, wrongPassword)).status).toBe(401)
    }
    expect((await signInEmail(owner.email, owner.password)).status).toBe(429)
    expect((await post('/request-password-reset', { email: owner.email, redirectTo: '/reset-password' })).status).toBe(
      200,
    )
    const [resetEmail] = await database.connection.db
      .select()
      .from(emailOutbox)
      .where(sql`${emailOutbox.to} = ${owner.email} and ${emailOutbox.text} like ${'%/reset-password/%'}`)
      .orderBy(sql`${emailOutbox.id} desc`)
      .limit(1)
    const token = /\/reset-password\/([^?\s]+)/.exec(resetEmail?.text ?? '')?.[1]
    expect(token, 'the reset email carries a token').toBeTruthy()
    const newPassword = 'analytical-1842'
    expect((await post('/reset-password', { token, newPassword })).status).toBe(200)
    expect((await signInEmail(owner.email, newPassword)).status).toBe(200)
  })
})

describe('the production server behind a proxy (TRUST_PROXY=true)', () => {
  const port = testPorts.signInThrottle
  const smtpPort = 2540
  const base = `http://localhost:${port}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-sign-in-throttle-'))
  const received: string[] = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'))
        done()
      })
    },
  })
  let server: ChildProcess | undefined

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.on('exit', resolve))
      server.kill('SIGTERM')
      await exited
    }
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
    rmSync(dataDir, { recursive: true, force: true })
  })

  /** scripts/start.ts as an operator runs it (it builds first when the sources changed). */
  async function startServer() {
    await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve))
    const { DATABASE_URL: _embedded, ...env } = process.env
    server = spawn(process.execPath, ['scripts/start.ts'], {
      env: {
        ...env,
        NODE_ENV: 'production',
        PORT: String(port),
        DATA_DIR: dataDir,
        TRUST_PROXY: 'true',
        // Fewer than the account's limit: had the server not told the forwarded addresses apart, the guesses would
        // meet this per-address limit first (429 without a code).
        AUTH_SIGN_IN_LIMIT: String(maxFailures - 2),
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    server.stdout?.on('data', (chunk) => {
      output += chunk
    })
    server.stderr?.on('data', (chunk) => {
      output += chunk
    })
    await vi.waitFor(
      () => {
        if (server?.exitCode !== null) throw new Error(`the server stopped:\n${output}`)
        if (!output.includes('is listening')) throw new Error('not listening yet')
      },
      { timeout: 600_000, interval: 100 },
    )
  }

  const post = (endpoint: string, body: unknown, forwardedFor: string) =>
    fetch(`${base}/api/auth${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, 'x-forwarded-for': forwardedFor },
      body: JSON.stringify(body),
    })

  it('locks an account guessed at from many forwarded addresses, and emails its owner once', async () => {
    await startServer()
    const person = { name: 'Hedy', email: 'hedy@example.com', username: 'hedy', password: 'frequency-1942' }
    expect((await post('/sign-up/email', person, '198.18.0.1')).status).toBe(200)

    // Each guess from its own address, as a botnet would: no address comes near its own limit.
    for (let guess = 1; guess <= maxFailures; guess++) {
      const refused = await post(
        '/sign-in/email',
        { email: person.email, password: wrongPassword },
        `198.18.1.${guess}`,
      )
      expect(refused.status, `guess ${guess}`).toBe(401)
    }
    const locked = await post('/sign-in/email', { email: person.email, password: person.password }, '198.18.2.1')
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await locked.json()) as { code?: string }).code).toBe('ACCOUNT_TEMPORARILY_LOCKED')
    const byUsername = await post('/sign-in/username', { username: 'Hedy', password: person.password }, '198.18.2.2')
    expect(byUsername.status).toBe(429)

    await vi.waitFor(() => expect(received.some((raw) => raw.includes('Repeated failed sign-ins'))).toBe(true), {
      timeout: 30_000,
    })
    const lockEmails = received.filter((raw) => raw.includes('Repeated failed sign-ins'))
    expect(lockEmails).toHaveLength(1)
    expect(lockEmails[0]).toContain(person.email)
  }, 900_000)
})
