import { and, count, desc, eq, lt } from 'drizzle-orm'
import type { Database } from '../db/client'
import { emailOutbox } from '../db/schema'

/**
 * How long an email kept without SMTP (`held`) stays readable in Console → System. Its sign-in links and codes lapse
 * within hours, so a week is ample to read one and short enough that a forgotten development database does not
 * pile up other people's mail. The hourly maintenance deletes older ones.
 */
export const keptEmailRetentionDays = 7

const held = eq(emailOutbox.status, 'held')

/** One page of the kept emails, newest first, and how many there are. */
export async function listKeptEmails(db: Database, options: { page: number; limit: number }) {
  const [items, totals] = await Promise.all([
    db
      .select({
        id: emailOutbox.id,
        to: emailOutbox.to,
        subject: emailOutbox.subject,
        createdAt: emailOutbox.createdAt,
      })
      .from(emailOutbox)
      .where(held)
      .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
      .limit(options.limit)
      .offset((options.page - 1) * options.limit),
    db.select({ total: count() }).from(emailOutbox).where(held),
  ])
  return { items, total: totals[0]?.total ?? 0 }
}

/** A kept email whole, as it would have been sent; undefined when none has this id (or it was not kept). */
export async function readKeptEmail(db: Database, id: number) {
  const [email] = await db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      text: emailOutbox.text,
      html: emailOutbox.html,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.id, id), held))
  return email
}

/** Deletes every kept email (an app admin's "Delete all"); returns how many. Queued, sent and dead mail stays. */
export async function deleteKeptEmails(db: Database): Promise<number> {
  const deleted = await db.delete(emailOutbox).where(held).returning({ id: emailOutbox.id })
  return deleted.length
}

/** Deletes the kept emails older than the retention period; returns how many. */
export async function purgeOldKeptEmails(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - keptEmailRetentionDays * 86_400_000)
  const purged = await db
    .delete(emailOutbox)
    .where(and(held, lt(emailOutbox.createdAt, cutoff)))
    .returning({ id: emailOutbox.id })
  return purged.length
}
