import { desc, eq, sql } from 'drizzle-orm'
import type { DatabaseConnection } from '../db/client'
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

/** pg-boss answers a command with counts its types leave out. */
const affected = (response: object) => (response as { affected?: number }).affected ?? 0

/**
 * What `npm run jobs` shows and changes, through a pg-boss client that runs no workers: a command-line task must not
 * take jobs from the servers.
 */
export async function jobOperator(connection: DatabaseConnection) {
  const boss = newQueueClient(connection, { supervise: false })
  await boss.start()
  const nameOf = async (id: string) => {
    const rows = await connection.db.execute<{ name: string }>(
      sql`select name from ${sql.identifier(jobSchema)}.job where id = ${id}::uuid limit 1`,
    )
    return (rows as unknown as { rows: { name: string }[] }).rows[0]?.name
  }
  return {
    async queues(): Promise<QueueSummary[]> {
      return (await boss.getQueues()).map((queue) => ({
        name: queue.name,
        queued: queue.queuedCount,
        active: queue.activeCount,
        failed: queue.failedCount,
        deferred: queue.deferredCount,
      }))
    },
    /** The jobs that need a look: failed, waiting for a retry, or running; newest first. */
    async unsettledJobs(limit = 50): Promise<StoredJob[]> {
      const result = await connection.db.execute(sql`
        select id, name, state, retry_count as "retryCount", retry_limit as "retryLimit", created_on as "createdOn",
          start_after as "startAfter", output
        from ${sql.identifier(jobSchema)}.job
        where state in ('failed', 'retry', 'active')
        order by created_on desc
        limit ${limit}`)
      return (result as unknown as { rows: StoredJob[] }).rows
    },
    async deadEmails(limit = 50) {
      return connection.db
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
    },
    /** Runs a failed job again; false when no failed job has the id. */
    async retry(id: string): Promise<boolean> {
      const name = await nameOf(id)
      if (!name) return false
      return affected(await boss.retry(name, id)) > 0
    },
    /** Cancels a job that has not finished; false when no such job has the id. */
    async cancel(id: string): Promise<boolean> {
      const name = await nameOf(id)
      if (!name) return false
      return affected(await boss.cancel(name, id)) > 0
    },
    /** Queues a dead email again; its delivery happens on a running server. */
    retryEmail: (outboxId: number) => retryDeadEmail(connection.db, outboxId),
    close: () => boss.stop({ graceful: false, close: true }),
  }
}
