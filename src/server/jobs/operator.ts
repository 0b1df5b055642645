import { desc, eq, sql } from 'drizzle-orm'
import type { PgBoss } from 'pg-boss'
import type { Database, DatabaseConnection } from '../db/client'
import { emailOutbox } from '../db/schema'
import { retryDeadEmail } from '../email/mailer'
import { jobSchema, newQueueClient } from './queue'

export interface QueueSummary {
  name: string
  queued: number
  active: number
  failed: number
  deferred: number
}

export interface StoredJob {
  id: string
  name: string
  state: string
  retryCount: number
  retryLimit: number
  createdOn: Date
  startAfter: Date
  output: unknown
}

/** The jobs that need a look, newest first: failed, waiting for a retry, or running (pg-boss's own table). */
export async function unsettledJobs(db: Database, states: readonly string[], limit = 50): Promise<StoredJob[]> {
  const result = await db.execute(sql`
    select id, name, state, retry_count as "retryCount", retry_limit as "retryLimit", created_on as "createdOn",
      start_after as "startAfter", output
    from ${sql.identifier(jobSchema)}.job
    where state in (${sql.join(
      states.map((state) => sql`${state}`),
      sql`, `,
    )})
    order by created_on desc
    limit ${limit}`)
  return (result as unknown as { rows: StoredJob[] }).rows
}

/** A failed job's error message, from what pg-boss stored (never its stack). */
export function failureOf(job: StoredJob): string | null {
  const output = job.output as { message?: unknown } | null
  return typeof output?.message === 'string' ? output.message.slice(0, 500) : null
}

export async function summarizeQueues(boss: PgBoss): Promise<QueueSummary[]> {
  // pg-boss's own queues (`__pgboss__…`) are its machinery, not the app's work.
  return (await boss.getQueues())
    .filter((queue) => !queue.name.startsWith('__pgboss'))
    .map((queue) => ({
      name: queue.name,
      queued: queue.queuedCount,
      active: queue.activeCount,
      failed: queue.failedCount,
      deferred: queue.deferredCount,
    }))
}

/** Emails given up on (every delivery attempt failed), newest first. */
export function deadEmails(db: Database, limit: number) {
  return db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(eq(emailOutbox.status, 'dead'))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit)
}

/** Runs a failed job again; false when no failed job has the id. */
export async function retryJob(db: Database, boss: PgBoss, id: string): Promise<boolean> {
  const name = await jobNameOf(db, id)
  return name ? affected(await boss.retry(name, id)) > 0 : false
}

async function jobNameOf(db: Database, id: string): Promise<string | undefined> {
  const result = await db.execute(
    sql`select name from ${sql.identifier(jobSchema)}.job where id = ${id}::uuid and state = 'failed' limit 1`,
  )
  return (result as unknown as { rows: { name: string }[] }).rows[0]?.name
}

/** pg-boss answers a command with counts its types leave out. */
const affected = (response: object) => (response as { affected?: number }).affected ?? 0

/**
 * What `npm run jobs` shows and changes, through a pg-boss client that runs no workers: a command-line task must not
 * take jobs from the servers.
 */
export async function jobOperator(connection: DatabaseConnection) {
  const boss = newQueueClient(connection, { supervise: false })
  await boss.start()
  return {
    queues: () => summarizeQueues(boss),
    unsettledJobs: () => unsettledJobs(connection.db, ['failed', 'retry', 'active']),
    deadEmails: (limit = 50) => deadEmails(connection.db, limit),
    retry: (id: string) => retryJob(connection.db, boss, id),
    /** Cancels a job that has not finished; false when no such job has the id. */
    async cancel(id: string): Promise<boolean> {
      const result = await connection.db.execute(
        sql`select name from ${sql.identifier(jobSchema)}.job where id = ${id}::uuid
          and state in ('created', 'retry', 'active') limit 1`,
      )
      const name = (result as unknown as { rows: { name: string }[] }).rows[0]?.name
      return name ? affected(await boss.cancel(name, id)) > 0 : false
    },
    /** Queues a dead email again; its delivery happens on a running server. */
    retryEmail: (outboxId: number) => retryDeadEmail(connection.db, outboxId),
    close: () => boss.stop({ graceful: false, close: true }),
  }
}
