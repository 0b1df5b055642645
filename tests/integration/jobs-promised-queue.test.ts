import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseConnection } from '#/server/db/client'
import { defineJob, enqueue, promiseJobQueue, runningQueue, stopJobQueue } from '#/server/jobs/queue'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// The production server promises its job queue before it listens and starts it once its first answer has gone out
// (scripts/serve.ts): a job sent in between must wait for the queue, not be dropped or fail.
const ran: string[] = []
const noted = defineJob<{ note: string }>({
  name: 'test-promised-note',
  run: async (_db, data) => {
    ran.push(data.note)
  },
})

const until = async (check: () => boolean, what: string) => {
  for (let waited = 0; waited < 45_000; waited += 100) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`gave up waiting for ${what}`)
}

/** Whether `promise` is still pending after the given time. */
async function stillPendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const pending = Symbol('pending')
  const first = await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(pending), ms))])
  return first === pending
}

describe.each(coreEngines)('a job queue promised before it starts, on %s', { timeout: 90_000 }, (engine) => {
  let database: FreshDatabase
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
  })
  afterEach(async () => {
    await stopJobQueue()
  })
  afterAll(async () => {
    await database.dispose()
  })

  it('holds a job sent before the start and sends it once the queue has started; the job runs', async () => {
    const queue = promiseJobQueue(database.connection, { pollingIntervalSeconds: 0.5 })
    const sent = enqueue(noted, { note: `early ${engine}` })
    expect(await stillPendingAfter(sent, 300), 'the job waits for the queue').toBe(true)
    expect(runningQueue()).toBeUndefined()

    await queue.start()
    expect(runningQueue()).toBeDefined()
    expect(await sent, 'the job has an id once sent').toEqual(expect.any(String))
    await until(() => ran.includes(`early ${engine}`), 'the job to run')
    expect(await enqueue(noted, { note: `later ${engine}` })).toEqual(expect.any(String))
  })

  it('answers null to a job waiting for a queue that shutdown withdrew, which then never starts', async () => {
    const queue = promiseJobQueue(database.connection)
    const sent = enqueue(noted, { note: `withdrawn ${engine}` })
    await stopJobQueue()
    expect(await sent, 'no queue will send it: the caller leaves it for later').toBeNull()
    await queue.start()
    expect(runningQueue(), 'a start after shutdown does nothing').toBeUndefined()
    expect(await enqueue(noted, { note: `after ${engine}` })).toBeNull()
  })

  it('stops a queue that was still starting when shutdown came, once it has started', async () => {
    const queue = promiseJobQueue(database.connection)
    const starting = queue.start()
    await stopJobQueue()
    await starting
    expect(runningQueue(), 'shutdown waited for the start, then stopped it').toBeUndefined()
  })
})

describe('a job queue whose start fails', { timeout: 90_000 }, () => {
  let database: FreshDatabase
  beforeAll(async () => {
    database = await createFreshDatabase('pglite')
  })
  afterAll(async () => {
    await stopJobQueue()
    await database.dispose()
  })

  it('is tried again while jobs sent meanwhile are left for later after the wait; once started, jobs are sent', async () => {
    // The database refuses the queue's statements, as when PostgreSQL is away for a moment.
    let refusing = true
    const queueDatabase = database.connection.queueDatabase
    if (!('db' in queueDatabase)) throw new Error('the embedded database hands pg-boss its own client')
    const flaky: DatabaseConnection = {
      ...database.connection,
      queueDatabase: {
        db: {
          executeSql: (text, values) =>
            refusing ? Promise.reject(new Error('Connection terminated')) : queueDatabase.db.executeSql(text, values),
        },
      },
    }
    const queue = promiseJobQueue(flaky, { pollingIntervalSeconds: 0.5, startWaitMs: 1_000 })
    const sent = enqueue(noted, { note: 'while refused' })
    await expect(queue.start()).rejects.toThrow('Connection terminated')
    expect(runningQueue()).toBeUndefined()
    expect(await sent, 'left for later once the wait is over').toBeNull()

    refusing = false
    await queue.start()
    expect(runningQueue(), 'a second start succeeds').toBeDefined()
    expect(await enqueue(noted, { note: 'after the retry' })).toEqual(expect.any(String))
    await until(() => ran.includes('after the retry'), 'the job to run')
  })
})
