import { count, max, sql } from 'drizzle-orm'
import { bigint, pgSchema, serial, text } from 'drizzle-orm/pg-core'
import { listPageNumber } from '#/lib/list-schemas'
import { z } from '#/lib/zod'
import { locales } from '#/paraglide/runtime'
import { appVersion, serversSeen } from '../../app-servers'
import { emailOutbox } from '../../db/schema'
import { deleteKeptEmails, keptEmailRetentionDays, listKeptEmails, readKeptEmail } from '../../email/kept-emails'
import { retryDeadEmail } from '../../email/mailer'
import { getEnv } from '../../env'
import { deadEmails, failureOf, retryJob, summarizeQueues, unsettledJobs } from '../../jobs/operator'
import { runningQueue } from '../../jobs/queue'
import { startedAt } from '../../runtime'
import { AppError, adminProcedure, createRouter } from '../init'

const outboxStatuses = ['held', 'queued', 'sent', 'dead'] as const

const outboxId = z.number('validation_record_id_invalid').int().positive().max(2_147_483_647)
const keptPageSize = z
  .number('validation_list_page_size_invalid')
  .int('validation_list_page_size_invalid')
  .min(1, 'validation_list_page_size_invalid')
  .max(100, 'validation_list_page_size_invalid')

// Drizzle's own bookkeeping table, read-only here (not part of the app schema, so no migration creates it twice).
const appliedMigrations = pgSchema('drizzle').table('__drizzle_migrations', {
  id: serial('id').primaryKey(),
  hash: text('hash').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }),
})

export const systemRouter = createRouter({
  /** A status report for app admins: what runs, since when, and which migrations are applied. */
  status: adminProcedure.query(async ({ ctx }) => {
    const env = getEnv()
    const [row] = await ctx.db
      .select({
        applied: sql<string>`count(*)`.mapWith((value: string | number) => BigInt(value)),
        latest: max(appliedMigrations.createdAt),
      })
      .from(appliedMigrations)
    return {
      serverTime: new Date(),
      startedAt,
      version: appVersion,
      servers: await serversSeen(ctx.db),
      database: {
        engine: env.DATABASE_URL ? ('postgres' as const) : ('pglite' as const),
        appliedMigrations: row?.applied ?? 0n,
        latestMigrationAt: row?.latest ? new Date(Number(row.latest)) : null,
      },
      locales: new Set<string>(locales),
      services: new Map<string, boolean>([
        ['postgres', Boolean(env.DATABASE_URL)],
        ['redis', Boolean(env.REDIS_URL)],
      ]),
    }
  }),

  /** The job queue as this server sees it, and the email outbox: what waits, what failed, what was given up on. */
  jobs: adminProcedure.query(async ({ ctx }) => {
    const boss = runningQueue()
    const [queues, failed, outboxCounts, givenUp] = await Promise.all([
      boss ? summarizeQueues(boss) : [],
      boss ? unsettledJobs(ctx.db, ['failed'], 20) : [],
      ctx.db.select({ status: emailOutbox.status, count: count() }).from(emailOutbox).groupBy(emailOutbox.status),
      deadEmails(ctx.db, 20),
    ])
    return {
      queueRunning: boss !== undefined,
      queues,
      failedJobs: failed.map((job) => ({
        id: job.id,
        name: job.name,
        attempts: job.retryCount + 1,
        createdAt: job.createdOn,
        error: failureOf(job),
      })),
      outbox: Object.fromEntries(
        outboxStatuses.map((status) => [status, outboxCounts.find((row) => row.status === status)?.count ?? 0]),
      ) as Record<(typeof outboxStatuses)[number], number>,
      deadEmails: givenUp,
    }
  }),

  /** Queues an email given up on (`dead`) again, with a fresh set of attempts. */
  retryEmail: adminProcedure.input(z.object({ id: outboxId })).mutation(async ({ ctx, input }) => {
    if (!(await retryDeadEmail(ctx.db, input.id))) {
      throw new AppError({
        code: 'NOT_FOUND',
        appCode: 'EMAIL_NOT_DEAD',
        message: 'No email given up on has this id',
      })
    }
    return { id: input.id }
  }),

  /**
   * The emails kept without SMTP, newest first: what a developer reads instead of a mailbox. App admins only, like the
   * rest of System: these hold other people's sign-in links and codes.
   */
  keptEmails: adminProcedure
    .input(z.object({ page: listPageNumber.default(1), limit: keptPageSize.default(10) }))
    .query(async ({ ctx, input }) => ({
      ...(await listKeptEmails(ctx.db, input)),
      retentionDays: keptEmailRetentionDays,
    })),

  /** One kept email whole (HTML and text), as it would have been sent. */
  keptEmail: adminProcedure.input(z.object({ id: outboxId })).query(async ({ ctx, input }) => {
    const email = await readKeptEmail(ctx.db, input.id)
    if (!email) {
      throw new AppError({ code: 'NOT_FOUND', appCode: 'KEPT_EMAIL_NOT_FOUND', message: 'No kept email has this id' })
    }
    return email
  }),

  /** Deletes every kept email at once (they are never sent later anyway). */
  deleteKeptEmails: adminProcedure.mutation(async ({ ctx }) => ({ deleted: await deleteKeptEmails(ctx.db) })),

  /** Runs a failed job again. */
  retryJob: adminProcedure
    .input(z.object({ id: z.uuid('validation_record_id_invalid') }))
    .mutation(async ({ ctx, input }) => {
      const boss = runningQueue()
      if (!boss || !(await retryJob(ctx.db, boss, input.id))) {
        throw new AppError({ code: 'NOT_FOUND', appCode: 'JOB_NOT_FAILED', message: 'No failed job has this id' })
      }
      return { id: input.id }
    }),
})
