import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, users } from '#/server/db/schema'
import { deliverOutboxMessage, sendEmail } from '#/server/email/mailer'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import { organizationHarness } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// The mail server is this proxy: it refuses connections, or accepts them and never says a word. Nothing behind it.
const smtpPort = 2560
process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`

describe.each(coreEngines)('email when the mail server is down or silent, on %s', (engine) => {
  let database: FreshDatabase
  let smtp: TcpProxy
  const db = () => database.connection.db
  const outboxFor = (to: string) => db().select().from(emailOutbox).where(eq(emailOutbox.to, to))

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    smtp = await startTcpProxy({ port: smtpPort, target: { host: '127.0.0.1', port: 9 } })
  })
  afterAll(async () => {
    await smtp?.close()
    await database.dispose()
  })

  it('signs a person up when the mail server refuses, and keeps their verification email in the outbox', async () => {
    smtp.setMode('refuse')
    const person = await organizationHarness(db()).signUp('Refused Mail', { email: 'refused.mail@example.com' })
    const [account] = await db().select().from(users).where(eq(users.id, person.id))
    expect(account?.email).toBe('refused.mail@example.com')
    expect(person.cookie, 'signed in, not left half made').toContain('session_token')
    // Better Auth may send the message after answering: it lands in the outbox moments later.
    for (let attempt = 0; attempt < 40 && (await outboxFor(person.email)).length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const kept = await outboxFor(person.email)
    expect(kept, 'the verification email is not lost').toHaveLength(1)
    expect(kept[0]?.text).toMatch(/https?:\/\//)
  })

  it('never lets a request wait for a silent mail server; its delivery gives up within the timeout and retries', async () => {
    smtp.setMode('stall')
    const message = { to: 'silent.mail@example.com', subject: 'Hello', text: 'A link: http://x/y', html: '<p>Hi</p>' }
    await sendEmail(db(), message)
    const [queued] = await outboxFor(message.to)
    expect(queued, 'written in the request, delivered by a job').toMatchObject({ status: 'queued', attempts: 0 })
    // The production bound is 10 s (smtpTimeoutMs); the test sets a short one. The race fails the test on a hang.
    const outcome = await Promise.race([
      deliverOutboxMessage(db(), queued?.id ?? 0, { last: false }, { timeoutMs: 300 }).then(
        () => 'sent' as const,
        () => 'failed' as const,
      ),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 10_000)),
    ])
    expect(outcome).toBe('failed')
    const [kept] = await outboxFor(message.to)
    expect(kept, 'kept for the next attempt, with what went wrong').toMatchObject({ status: 'queued', attempts: 1 })
    expect(kept?.lastError).toMatch(/greeting never received|timeout|timed out/i)
  })
})
