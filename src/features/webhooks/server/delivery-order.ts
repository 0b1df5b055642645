import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '#/server/db/client'
import { webhookDeliveries } from '#/server/db/schema'

/**
 * Each endpoint gets its events in the order they were recorded (docs/decisions/037-webhook-order-and-attempt-
 * timestamps.md): a delivery's first attempt waits while an earlier delivery to the same endpoint is still pending.
 * One that has not been attempted yet always holds the later ones (a backlog keeps its order however old it is);
 * one that has been attempted holds them only for this long after its first attempt, so an event that keeps failing
 * holds its endpoint back for an hour, not for the day of its retries.
 */
export const orderHoldMs = 60 * 60_000

/**
 * Why a delivery may not have its first attempt yet: held by an earlier one not attempted yet (`until: null`: it
 * goes when that one has had its turn), or by attempted ones until the last of their holds ends. Undefined when
 * nothing holds it (or it is not waiting for a first attempt, which the claim then finds).
 */
export async function deliveryHold(
  db: Database,
  deliveryId: string,
  now: Date,
): Promise<{ until: Date | null } | undefined> {
  const held = alias(webhookDeliveries, 'held')
  const [earlier] = await db
    .select({
      unattempted: sql<boolean | null>`bool_or(${webhookDeliveries.attempts} = 0)`,
      latestFirstAttempt: sql<string | null>`max(${webhookDeliveries.firstAttemptAt})`,
    })
    .from(webhookDeliveries)
    .innerJoin(held, eq(held.endpointId, webhookDeliveries.endpointId))
    .where(
      and(
        eq(held.id, deliveryId),
        eq(held.status, 'pending'),
        eq(held.attempts, 0),
        eq(webhookDeliveries.status, 'pending'),
        // Compared in the database: created_at keeps microseconds, a JavaScript Date only milliseconds.
        sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (${held.createdAt}, ${held.id})`,
        sql`(${webhookDeliveries.attempts} = 0 or ${webhookDeliveries.firstAttemptAt} > ${new Date(now.getTime() - orderHoldMs)})`,
      ),
    )
  if (earlier?.unattempted) return { until: null }
  if (!earlier?.latestFirstAttempt) return undefined
  return { until: new Date(new Date(earlier.latestFirstAttempt).getTime() + orderHoldMs) }
}

/**
 * The endpoint's earliest delivery still waiting for its first attempt: the only one that can go next, since it
 * holds every later one.
 */
export async function nextWaitingDelivery(db: Database, endpointId: string, now: Date): Promise<string | undefined> {
  const [next] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, 0),
        or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
    .limit(1)
  return next?.id
}
