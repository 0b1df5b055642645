import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#/server/db/client'
import { emailOutbox } from '#/server/db/schema'
import { deliverOutboxMessage, retryDeadEmail, sendEmail, sweepOutbox } from '#/server/email/mailer'
import {
  defineJob,
  enqueue,
  type JobRunner,
  newQueueClient,
  startJobQueue,
  startJobRunner,
  stopJobQueue,
} from '#/server/jobs/queue'
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp-server'
import { organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// A scheduled job of the test's own, to count its runs: it is due once a year, so only the start-up run happens.
let ticks = 0
const yearlyTick = defineJob<object>({
  name: 'test-yearly-tick',
  schedule: { cron: '0 0 1 1 *', periodSeconds: 3600 },
  run: async () => {
    ticks++
  },
})

const alwaysFails = defineJob<object>({
  name: 'test-always-fails',
  retryLimit: 0,
  run: async () => {
    throw new Error('Out of paper')
  },
})

// Notes what each run of a job of the test's own was sent with.
const woken: string[] = []
const wakes = defineJob<{ note: string }>({
  name: 'test-wakes',
  run: async (_db, { note }) => {
    woken.push(note)
  },
})

const until = async (check: () => Promise<boolean>, what: string) => {
  for (let waited = 0; waited < 45_000; waited += 200) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`gave up waiting for ${what}`)
}

// One mail server for the file: the environment is read once per process.
let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startTestSmtpServer()
  process.env.SMTP_URL = smtp.url
})
afterAll(async () => {
  delete process.env.SMTP_URL
  await smtp.close()
})

// A busy machine (the whole suite on two cores) may take a while to reach a job: each waits up to 45 s.
describe.each(coreEngines)('background jobs on %s', { timeout: 90_000 }, (engine) => {
  let database: FreshDatabase
  const db = () => database.connection.db
  const outboxFor = async (to: string) => (await db().select().from(emailOutbox).where(eq(emailOutbox.to, to)))[0]
  const message = (to: string) => ({ to, subject: `Hello ${to}`, text: 'Hello', html: '<p>Hello</p>' })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    ticks = 0
    await startJobQueue(database.connection, { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 })
  })
  afterAll(async () => {
    await stopJobQueue()
    await database.dispose()
  })

  it('delivers an email after the request, retrying while the mail server refuses, and sends it once', async () => {
    const to = `retried.${engine}@example.com`
    smtp.refuseNext(2)
    await sendEmail(db(), message(to))
    expect((await outboxFor(to))?.status, 'the request only writes it').not.toBe('sent')
    await until(async () => (await outboxFor(to))?.status === 'sent', 'the delivery')
    expect(await outboxFor(to)).toMatchObject({ attempts: 3, lastError: null })
    expect(smtp.received.filter((text) => text.includes(to))).toHaveLength(1)
  })

  it('gives up after the last attempt, keeps the message as dead, and an admin retry delivers it', async () => {
    const to = `dead.letter.${engine}@example.com`
    // Written where no queue runs (a command-line task): the sweep finds it later.
    await db()
      .insert(emailOutbox)
      .values({ ...message(to), status: 'queued' })
    const [row] = await db().select().from(emailOutbox).where(eq(emailOutbox.to, to))
    smtp.refuseNext(1)
    await expect(deliverOutboxMessage(db(), row?.id ?? 0, { last: true })).rejects.toThrow(/busy/)
    expect(await outboxFor(to)).toMatchObject({ status: 'dead', attempts: 1, lastError: expect.stringMatching(/busy/) })
    expect(await deliverOutboxMessage(db(), row?.id ?? 0, { last: false }), 'a dead message is not sent').toBe(
      'not-queued',
    )
    expect(await retryDeadEmail(db(), row?.id ?? 0)).toBe(true)
    await until(async () => (await outboxFor(to))?.status === 'sent', 'the retried delivery')
    expect(await retryDeadEmail(db(), row?.id ?? 0), 'only a dead message is retried').toBe(false)
    expect(smtp.received.filter((text) => text.includes(to))).toHaveLength(1)
  })

  it('sweeps up a message whose job was never sent, and no message twice', async () => {
    const to = `swept.${engine}@example.com`
    await db()
      .insert(emailOutbox)
      .values({ ...message(to), status: 'queued', createdAt: new Date(Date.now() - 10 * 60_000) })
    expect(await sweepOutbox(db())).toBeGreaterThanOrEqual(1)
    await until(async () => (await outboxFor(to))?.status === 'sent', 'the swept delivery')
    expect(await sweepOutbox(db()), 'nothing left to sweep').toBe(0)
    expect(smtp.received.filter((text) => text.includes(to))).toHaveLength(1)
  })

  it('runs a scheduled job once per period, however often servers start', async () => {
    await until(async () => ticks === 1, 'the start-up run')
    // Another server starting this period (on PostgreSQL a second process; on PGlite the same one again).
    let second: JobRunner | undefined
    const secondConnection = database.url ? openDatabase({ engine: 'postgres', url: database.url }) : undefined
    try {
      second = await startJobRunner(secondConnection ?? database.connection, { pollingIntervalSeconds: 0.5 })
      const jobs = await second.boss.findJobs(yearlyTick.name)
      expect(jobs, 'one job for the period').toHaveLength(1)
      await new Promise((resolve) => setTimeout(resolve, 2000))
      expect(ticks).toBe(1)
      expect(await second.boss.getSchedules(yearlyTick.name)).toHaveLength(1)
    } finally {
      await second?.stop()
      await secondConnection?.close()
    }
  })
  it('shows app admins the queues, failed jobs and emails given up on, and retries them from the console', async () => {
    interface SystemJobs {
      queueRunning: boolean
      queues: { name: string; failed: number }[]
      failedJobs: { id: string; name: string; error: string | null }[]
      outbox: Record<string, number>
      deadEmails: { id: number; to: string }[]
    }
    const h = organizationHarness(db())
    const admin: Person = await h.signUp('Ada Operator')
    const member = await h.signUp('Mo Member')
    const jobId = await enqueue(alwaysFails, {})
    const failed = async () =>
      (await h.trpc<SystemJobs>('query', 'system.jobs', admin.cookie)).data?.failedJobs.find((job) => job.id === jobId)
    await until(async () => (await failed()) !== undefined, 'the failed job')
    expect(await failed()).toMatchObject({ name: alwaysFails.name, error: 'Out of paper' })
    const view = (await h.trpc<SystemJobs>('query', 'system.jobs', admin.cookie)).data
    expect(view?.queueRunning).toBe(true)
    expect(view?.queues.map((queue) => queue.name)).toEqual(expect.arrayContaining(['email-delivery', 'maintenance']))
    expect(view?.outbox.sent, 'the emails delivered above').toBeGreaterThanOrEqual(3)

    expect((await h.trpc('mutation', 'system.retryJob', admin.cookie, { id: jobId })).status).toBe(200)
    const unknown = await h.trpc('mutation', 'system.retryJob', admin.cookie, { id: randomUUID() })
    expect(unknown).toMatchObject({ status: 404, error: { appCode: 'JOB_NOT_FAILED' } })
    expect((await h.trpc('mutation', 'system.retryJob', admin.cookie, { id: 'not-a-uuid' })).status).toBe(400)
    expect((await h.trpc('query', 'system.jobs', member.cookie)).status, 'app admins only').toBe(403)

    const to = `console.retry.${engine}@example.com`
    await db()
      .insert(emailOutbox)
      .values({ ...message(to), status: 'dead', attempts: 9, lastError: 'Mailbox busy' })
    const dead = (await h.trpc<SystemJobs>('query', 'system.jobs', admin.cookie)).data?.deadEmails.find(
      (email) => email.to === to,
    )
    expect(dead).toBeDefined()
    expect((await h.trpc('mutation', 'system.retryEmail', admin.cookie, { id: dead?.id })).status).toBe(200)
    await until(async () => (await outboxFor(to))?.status === 'sent', 'the email retried from the console')
    const twice = await h.trpc('mutation', 'system.retryEmail', admin.cookie, { id: dead?.id })
    expect(twice).toMatchObject({ status: 404, error: { appCode: 'EMAIL_NOT_DEAD' } })
  })
})

describe.each(coreEngines)('a job sent on %s', { timeout: 90_000 }, (engine) => {
  let database: FreshDatabase
  let runner: JobRunner | undefined
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
  })
  afterAll(async () => {
    await runner?.stop()
    await database.dispose()
  })

  it('wakes the idle workers through a NOTIFY, not at their next look for work, also on a queue made before', async () => {
    // The queue as an earlier version made it, sending no NOTIFY: the runner's start switches it.
    const earlier = newQueueClient(database.connection, { supervise: false })
    await earlier.start()
    await earlier.createQueue(wakes.name)
    expect((await earlier.getQueue(wakes.name))?.notify).toBe(false)
    await earlier.stop({ graceful: false, close: true })
    // The workers look for work every 10 minutes: only the NOTIFY brings the job within the 45 s `until` waits.
    runner = await startJobRunner(database.connection, { pollingIntervalSeconds: 600 })
    expect((await runner.boss.getQueue(wakes.name))?.notify).toBe(true)
    // Past the look every worker takes as it starts.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const note = `sent on ${engine}`
    await runner.boss.send(wakes.name, { note })
    await until(async () => woken.includes(note), 'the woken worker')
  })
})
