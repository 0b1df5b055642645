import { count, max, sql } from 'drizzle-orm'
import { bigint, pgSchema, serial, text } from 'drizzle-orm/pg-core'
import { listPageNumber } from '#/lib/list-schemas'
import { z } from '#/lib/zod'
import { locales } from '#/paraglide/runtime'
import { appVersion, serversSeen } from '../../app-servers'
import { backupStatus } from '../../backups/backups'
import { emailOutbox } from '../../db/schema'
import { deleteKeptEmails, keptEmailRetentionDays, listKeptEmails, readKeptEmail } from '../../email/kept-emails'
import { retryDeadEmail, sendEmail } from '../../email/mailer'
import { testEmail } from '../../email/templates'
import { getEnv } from '../../env'
import { deadEmails, failureOf, retryJob, summarizeQueues, unsettledJobs } from '../../jobs/operator'
import { runningQueue } from '../../jobs/queue'
import { launchChecklist } from '../../launch-checks'
import { consumeRateLimit, type RateLimitRule } from '../../rate-limit'
import { startedAt } from '../../runtime'
import { getSiteSettings } from '../../settings'
import { AppError, adminProcedure, createRouter, tooManyRequests } from '../init'

const outboxStatuses = ['held', 'queued', 'sent', 'dead'] as const

const localeInput = z.object({ locale: z.enum(locales) })

/** Enough to try SMTP a few times while setting it up; few enough that the button is no way to flood a mailbox. */
const testEmailLimit: RateLimitRule = { limit: 5, windowMs: 60_000 }

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
      backups: await backupStatus(ctx.db, env),
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

  /**
   * "Before you launch": what a site should have before real people use it, each item done or to do, read from the
   * configuration this server runs with and the installed apps' own checks.
   */
  launchChecklist: adminProcedure.input(localeInput).query(async ({ ctx, input }) => {
    const checks = await launchChecklist(ctx.db, getEnv(), {
      locale: input.locale,
      requestOrigin: ctx.requestOrigin,
      userId: ctx.user.id,
    })
    return { checks, done: checks.filter((check) => check.done).length }
  }),

  /**
   * Queues an email to the signed-in app admin through the outbox, as every email goes: delivered by the queue with
   * SMTP, kept (readable under Kept emails) without it.
   */
  sendTestEmail: adminProcedure.input(localeInput).mutation(async ({ ctx, input }) => {
    const rate = await consumeRateLimit(ctx.db, `test-email:${ctx.user.id}`, testEmailLimit)
    if (!rate.allowed) {
      throw tooManyRequests(rate.retryAfterSeconds, `Too many test emails; try again in ${rate.retryAfterSeconds} s.`)
    }
    const env = getEnv()
    const { productName } = await getSiteSettings(ctx.db)
    await sendEmail(
      ctx.db,
      testEmail({
        to: ctx.user.email,
        name: ctx.user.name,
        url: `${env.APP_URL}/${input.locale}/console/system`,
        product: productName,
        locale: input.locale,
      }),
    )
    return { to: ctx.user.email, kept: !env.SMTP_URL }
  }),

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
