import { type JobWithMetadata, PgBoss } from 'pg-boss'
import type { Database, DatabaseConnection } from '../db/client'
import { log } from '../log'
import { inSpan, SpanKind } from '../tracing'

/**
 * Background work on the app's own database, through pg-boss (docs/decisions/026-jobs-on-pg-boss.md): a job sent by
 * any server is run once by one of them, retried with backoff when it throws, and a scheduled job runs once per
 * period however many servers run. On PGlite the one embedded connection carries it; on PostgreSQL a small pool.
 */
export interface JobDefinition<Data extends object> {
  name: string
  /** Does the work; throwing fails this attempt (retried until `retryLimit`). */
  run(db: Database, data: Data, attempt: JobAttempt): Promise<void>
  /** Attempts after the first one. */
  retryLimit?: number
  /** Seconds before the first retry; doubled for each later one (with jitter), up to `retryDelayMaxSeconds`. */
  retryDelaySeconds?: number
  retryDelayMaxSeconds?: number
  /** How long one attempt may run before it counts as failed. */
  expireInSeconds?: number
  /**
   * A cron expression (UTC): the job is sent once per tick across all servers, and once as a server starts unless
   * `atStart` is false (a backup of a database that has just been created says nothing).
   */
  schedule?: { cron: string; periodSeconds: number; atStart?: boolean }
}

export interface JobAttempt {
  jobId: string
  /** 0 on the first attempt. */
  retryCount: number
  retryLimit: number
  /** Whether a failure now is the last one (no retry follows). */
  last: boolean
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds jobs of every data shape.
const definitions = new Map<string, JobDefinition<any>>()

/** Makes a job known; the composition root (src/server.ts) defines each feature's jobs before the queue starts. */
export function defineJob<Data extends object>(definition: JobDefinition<Data>): JobDefinition<Data> {
  definitions.set(definition.name, definition)
  return definition
}

export function jobDefinitions(): JobDefinition<object>[] {
  return [...definitions.values()]
}

/** The pg-boss schema inside the app's database. */
export const jobSchema = 'pgboss'

export function newQueueClient(connection: DatabaseConnection, options: { supervise: boolean }): PgBoss {
  const embedded = connection.engine === 'pglite'
  const boss = new PgBoss({
    ...connection.queueDatabase,
    schema: jobSchema,
    backend: embedded ? 'pglite' : 'postgres',
    ...(embedded ? {} : { max: 3, application_name: 'hatch-jobs' }),
    supervise: options.supervise,
    schedule: options.supervise,
    // A runner's workers wait for a NOTIFY that a job was sent instead of asking every queue every 2 s: each ask
    // was a statement on the embedded database's one connection, about six a second that every request waited
    // behind (issue 55). Only the runner listens: a client that only sends needs no connection of its own for it.
    useListenNotify: options.supervise,
  })
  boss.on('error', (error) => log().error({ err: error }, 'the job queue met an error'))
  boss.on('warning', (warning) => {
    // Without the listener the workers go on asking every 2 s; the operator sees why it is slower.
    if ((warning.data as { type?: string }).type === 'listen_notify_unavailable') log().warn(warning.message)
  })
  return boss
}

/**
 * Creates each defined job's queue (pg-boss keeps queues in the database; creating one again changes nothing), each
 * sending a NOTIFY when a job is sent to it; a queue made before that (an earlier version) is switched to it.
 */
async function ensureQueues(boss: PgBoss, options: JobRunnerOptions): Promise<void> {
  const existing = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]))
  for (const definition of definitions.values()) {
    const queue = existing.get(definition.name)
    if (queue) {
      if (!queue.notify) await boss.updateQueue(definition.name, { notify: true })
      continue
    }
    const retryLimit = definition.retryLimit ?? 3
    await boss.createQueue(definition.name, {
      retryLimit: Math.min(retryLimit, options.retryLimitAtMost ?? retryLimit),
      retryDelay: options.retryDelaySeconds ?? definition.retryDelaySeconds ?? 30,
      retryBackoff: true,
      retryDelayMax: options.retryDelayMaxSeconds ?? definition.retryDelayMaxSeconds ?? 3600,
      expireInSeconds: definition.expireInSeconds ?? 15 * 60,
      notify: true,
    })
  }
}

export interface JobRunner {
  boss: PgBoss
  stop(): Promise<void>
}

export interface JobRunnerOptions {
  /**
   * How often an idle worker looks for work that no NOTIFY announces: a retry or a job sent for later, once due (and
   * every job, where the listener could not start).
   */
  pollingIntervalSeconds?: number
  /** Tests shorten every job's first retry delay to this. */
  retryDelaySeconds?: number
  /** Tests cap every job's longest retry delay, and its number of retries, to see a day of retries in seconds. */
  retryDelayMaxSeconds?: number
  retryLimitAtMost?: number
}

/** Runs one attempt of a job, tells the observer how it ended, and logs a failure (pg-boss retries it). */
function jobHandler(definition: JobDefinition<object>, connection: DatabaseConnection) {
  return async ([job]: JobWithMetadata<object>[]) => {
    if (!job) return
    const last = job.retryCount >= job.retryLimit
    try {
      await inSpan(
        `job ${definition.name}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: { 'hatch.job.id': job.id, 'hatch.job.attempt': job.retryCount + 1 },
        },
        () =>
          definition.run(connection.db, job.data, {
            jobId: job.id,
            retryCount: job.retryCount,
            retryLimit: job.retryLimit,
            last,
          }),
      )
    } catch (error) {
      jobRunObserver?.(definition.name, last ? 'failed' : 'retrying')
      log().warn({ err: error, job: definition.name, jobId: job.id, attempt: job.retryCount + 1 }, 'a job failed')
      throw error
    }
    jobRunObserver?.(definition.name, 'completed')
  }
}

/** How often a listening worker still looks for jobs that became due without a NOTIFY (retries, delayed jobs). */
const dueJobCheckSeconds = 10

/**
 * One server's part of the queue: its workers for every defined job, the schedules, and a first run of each
 * scheduled job unless a server already ran it this period.
 */
export async function startJobRunner(
  connection: DatabaseConnection,
  options: JobRunnerOptions = {},
): Promise<JobRunner> {
  const boss = newQueueClient(connection, { supervise: true })
  try {
    await boss.start()
    await ensureQueues(boss, options)
    // A schedule switched off (BACKUP_SCHEDULE=off) stays in the database until someone removes it.
    for (const kept of await boss.getSchedules()) {
      if (!definitions.get(kept.name)?.schedule) await boss.unschedule(kept.name, kept.key)
    }
    for (const definition of definitions.values()) {
      await boss.work(
        definition.name,
        {
          // Every 2 s without the listener, as before; with it, each due retry or delayed job is found within 10 s.
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
          notifyPollingIntervalSeconds: options.pollingIntervalSeconds ?? dueJobCheckSeconds,
          includeMetadata: true,
        },
        jobHandler(definition, connection),
      )
      if (definition.schedule) {
        await boss.schedule(definition.name, definition.schedule.cron, {}, { tz: 'UTC' })
        if (definition.schedule.atStart !== false) {
          await boss.sendThrottled(definition.name, {}, null, definition.schedule.periodSeconds, 'start')
        }
      }
    }
  } catch (error) {
    // What the failed start had set going (its pool, its timers) ends with it; a later start makes a new client.
    await boss.stop({ graceful: false, close: true }).catch(() => undefined)
    throw error
  }
  return { boss, stop: () => boss.stop({ graceful: true, timeout: 10_000, close: true }) }
}

let running: JobRunner | undefined

/** A queue promised to this process and not started yet: `enqueue` waits for `runner`. */
interface PromisedRunner {
  runner: Promise<JobRunner | undefined>
  settle(runner: JobRunner | undefined): void
  starting: boolean
  startWaitMs: number
}
let promised: PromisedRunner | undefined

type JobOutcome = 'completed' | 'retrying' | 'failed'
let jobRunObserver: ((job: string, outcome: JobOutcome) => void) | undefined

/** Tells `observer` how each job attempt this process runs ends (the metrics count them). */
export function observeJobRuns(observer: (job: string, outcome: JobOutcome) => void): void {
  jobRunObserver = observer
}

/** Starts this process's runner; `enqueue` sends through it. */
export async function startJobQueue(connection: DatabaseConnection, options: JobRunnerOptions = {}): Promise<void> {
  running ??= await startJobRunner(connection, options)
}

export interface PromisedJobQueue {
  /**
   * Starts the queue; a call while a start runs answers that start. A failed start rejects and leaves the queue
   * promised, for a later call to try again.
   */
  start(): Promise<void>
}

/** How long a job sent while the promised queue has not started waits for it, before the caller leaves it for later. */
const defaultStartWaitMs = 10_000

/**
 * Promises this process a queue that starts later, when `start` is called: the production server starts it once its
 * first answers have gone out (scripts/serve.ts), so a restarted server answers sooner. A job sent meanwhile waits
 * for the start (at most `startWaitMs`, else `enqueue` answers null as where no queue runs) and is then sent.
 */
export function promiseJobQueue(
  connection: DatabaseConnection,
  options: JobRunnerOptions & { startWaitMs?: number } = {},
): PromisedJobQueue {
  let settle: (runner: JobRunner | undefined) => void = () => undefined
  const entry: PromisedRunner = {
    runner: new Promise((resolve) => {
      settle = resolve
    }),
    settle: (runner) => settle(runner),
    starting: false,
    startWaitMs: options.startWaitMs ?? defaultStartWaitMs,
  }
  promised = entry
  let attempt: Promise<void> | undefined
  const tryToStart = async () => {
    // Shutdown came first and withdrew the promise: the queue stays unstarted.
    if (promised !== entry) return
    entry.starting = true
    try {
      running = await startJobRunner(connection, options)
    } catch (error) {
      entry.starting = false
      attempt = undefined
      // Shutdown came while this start ran: it waits for nothing more.
      if (promised !== entry) entry.settle(undefined)
      throw error
    }
    entry.settle(running)
    if (promised === entry) promised = undefined
  }
  return {
    start: () => {
      attempt ??= tryToStart()
      return attempt
    },
  }
}

/** This process's runner, once a promised queue has started (waiting at most its `startWaitMs`). */
async function startedRunner(): Promise<JobRunner | undefined> {
  const pending = promised
  if (running || !pending) return running
  let timer: NodeJS.Timeout | undefined
  const gaveUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, pending.startWaitMs, undefined)
  })
  try {
    return await Promise.race([pending.runner, gaveUp])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Sends a job; null when this process runs no queue (a command-line task) or its queue has not started in time, for
 * the caller to leave it for later.
 */
export async function enqueue<Data extends object>(
  definition: JobDefinition<Data>,
  data: Data,
  options: { singletonKey?: string; startAfterSeconds?: number } = {},
): Promise<string | null> {
  const runner = await startedRunner()
  if (!runner) return null
  return runner.boss.send(definition.name, data, {
    singletonKey: options.singletonKey,
    startAfter: options.startAfterSeconds,
  })
}

/** This process's pg-boss client, when it runs a queue (the console's System page reads and retries through it). */
export function runningQueue(): PgBoss | undefined {
  return running?.boss
}

/** Stops taking new jobs and waits for the running ones (part of a graceful shutdown). */
export async function stopJobQueue(): Promise<void> {
  // A queue still starting is stopped once started; one promised and never started is withdrawn.
  const pending = promised
  promised = undefined
  if (pending && !pending.starting) pending.settle(undefined)
  else await pending?.runner
  const current = running
  running = undefined
  await current?.stop()
}
