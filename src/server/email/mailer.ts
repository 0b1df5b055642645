import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { createTransport, type Transporter } from 'nodemailer'
import type { Database } from '../db/client'
import { emailOutbox } from '../db/schema'
import { getEnv } from '../env'
import { defineJob, enqueue, type JobAttempt } from '../jobs/queue'
import { log } from '../log'
import { inSpan, SpanKind } from '../tracing'
import { outboxNotice } from './outbox-notice'

export interface EmailMessage {
  to: string
  subject: string
  text: string
  html: string
}

/**
 * How long one SMTP step may take (connecting, the server's greeting, any later reply). nodemailer's defaults are
 * two minutes for the greeting and ten for the socket: a mail server that accepts and never answers would hold the
 * sign-up or reset that sends the message that long. Ten seconds is ample for a working server across the world.
 */
export const smtpTimeoutMs = 10_000

let cached: { url: string; timeoutMs: number; transport: Transporter } | undefined

function transportFor(url: string, timeoutMs: number): Transporter {
  if (cached?.url !== url || cached.timeoutMs !== timeoutMs) {
    cached = {
      url,
      timeoutMs,
      transport: createTransport({
        url,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      }),
    }
  }
  return cached.transport
}

/**
 * Sends an email without waiting for the mail server: the message is written to the outbox in the caller's request
 * and a job delivers it (`emailDelivery`), retrying with backoff. Without SMTP_URL it stays in the outbox (`held`),
 * with a notice in the server log, for app admins to read in Console → System. A sign-up or a reset never waits for
 * SMTP, and never fails because it is down.
 */
export async function sendEmail(db: Database, message: EmailMessage): Promise<void> {
  const env = getEnv()
  if (!env.SMTP_URL) {
    // Kept, never sent later, even once SMTP is set: its links and codes would arrive long after they lapsed. An app
    // admin reads it in Console → System until the hourly maintenance deletes it (src/server/email/kept-emails.ts).
    const [kept] = await db
      .insert(emailOutbox)
      .values({ ...message, status: 'held' })
      .returning({ id: emailOutbox.id })
    // Someone trying Hatch on this machine reads the link here, so it is printed as it is, not as a log line (whose
    // screening would hide the link's token); elsewhere outboxNotice leaves the text out.
    if (kept) console.log(outboxNotice(message, env.APP_URL, kept.id))
    return
  }
  const [queued] = await db
    .insert(emailOutbox)
    .values({ ...message, status: 'queued' })
    .returning({ id: emailOutbox.id })
  // Without a queue in this process (a command-line task) the sweep sends it a few minutes later.
  if (queued) await enqueue(emailDelivery, { outboxId: queued.id })
}

/** How long a delivery holds its message: longer than an SMTP exchange may take (three timeouts). */
const claimMs = 3 * smtpTimeoutMs + 5_000

/**
 * One attempt at delivering an outbox message. Delivered: `sent`. Failed: kept `queued` and the error thrown, for the
 * queue to retry later; after the last attempt `dead`, kept for an app admin to retry. Two jobs for one message
 * (a sweep racing a retry) cannot both send it: the first claims it.
 */
export async function deliverOutboxMessage(
  db: Database,
  outboxId: number,
  attempt: Pick<JobAttempt, 'last'>,
  options: { timeoutMs?: number } = {},
): Promise<'sent' | 'not-queued'> {
  const smtpUrl = getEnv().SMTP_URL
  const [message] = await db
    .update(emailOutbox)
    .set({ claimedUntil: new Date(Date.now() + claimMs), attempts: sql`${emailOutbox.attempts} + 1` })
    .where(
      and(
        eq(emailOutbox.id, outboxId),
        eq(emailOutbox.status, 'queued'),
        or(isNull(emailOutbox.claimedUntil), lt(emailOutbox.claimedUntil, new Date())),
      ),
    )
    .returning()
  if (!message) return 'not-queued'
  try {
    if (!smtpUrl) throw new Error('SMTP_URL is not set')
    const transport = transportFor(smtpUrl, options.timeoutMs ?? smtpTimeoutMs)
    await inSpan('smtp send', { kind: SpanKind.CLIENT, attributes: { 'hatch.email.outbox_id': message.id } }, () =>
      transport.sendMail({
        from: getEnv().MAIL_FROM,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      }),
    )
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    await db
      .update(emailOutbox)
      .set({ status: attempt.last ? 'dead' : 'queued', lastError: reason.slice(0, 500), claimedUntil: null })
      .where(eq(emailOutbox.id, outboxId))
    log().error(
      { outboxId, attempt: message.attempts, to: message.to, reason },
      attempt.last ? 'email delivery failed; given up (dead, in the outbox)' : 'email delivery failed; will retry',
    )
    throw error
  }
  await db
    .update(emailOutbox)
    .set({ status: 'sent', sentAt: new Date(), lastError: null, claimedUntil: null })
    .where(eq(emailOutbox.id, outboxId))
  return 'sent'
}

/** Delivers one outbox message: eight retries over about four hours (30 s doubling, at most an hour apart). */
export const emailDelivery = defineJob<{ outboxId: number }>({
  name: 'email-delivery',
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryDelayMaxSeconds: 3600,
  expireInSeconds: 120,
  run: async (db, { outboxId }, attempt) => {
    await deliverOutboxMessage(db, outboxId, attempt)
  },
})

/** A queued message no job has tried within this long lost its job (written where no queue ran). */
const unsentAfterMs = 5 * 60_000

/** Sends a delivery job for each queued message that never had an attempt; returns how many. */
export async function sweepOutbox(db: Database, now = new Date()): Promise<number> {
  if (!getEnv().SMTP_URL) return 0
  const waiting = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.status, 'queued'),
        eq(emailOutbox.attempts, 0),
        lt(emailOutbox.createdAt, new Date(now.getTime() - unsentAfterMs)),
      ),
    )
    .limit(1000)
  for (const { id } of waiting) await enqueue(emailDelivery, { outboxId: id })
  return waiting.length
}

export const emailSweep = defineJob<object>({
  name: 'email-sweep',
  retryLimit: 1,
  schedule: { cron: '*/5 * * * *', periodSeconds: 300 },
  run: async (db) => {
    await sweepOutbox(db)
  },
})

/** An app admin's retry of a message that was given up on (`dead`): queued again with a fresh set of attempts. */
export async function retryDeadEmail(db: Database, outboxId: number): Promise<boolean> {
  const [revived] = await db
    .update(emailOutbox)
    .set({ status: 'queued', attempts: 0, claimedUntil: null })
    .where(and(eq(emailOutbox.id, outboxId), eq(emailOutbox.status, 'dead')))
    .returning({ id: emailOutbox.id })
  if (!revived) return false
  await enqueue(emailDelivery, { outboxId })
  return true
}
