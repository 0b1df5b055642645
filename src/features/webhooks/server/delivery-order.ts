import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '#/server/db/client'
import { webhookDeliveries } from '#/server/db/schema'

/**
 * Each endpoint gets its events in the order they were recorded (docs/decisions/037-webhook-order-and-attempt-
 * timestamps.md): a delivery's first attempt waits while an earlier delivery to the same endpoint is still pending,
 * but only while that earlier one is younger than this. An event that keeps failing holds its endpoint back for an
 * hour, not for the day of its retries; after that the later ones go, and a receiver orders by the body's timestamp.
 */
export const orderHoldMs = 60 * 60_000

/**
 * The earliest delivery that must reach the endpoint before this one's first attempt: recorded before it (by
 * `created_at`, which is the database clock when the row was written, then the id), still pending, within its hold.
 * A delivery that has had an attempt is never held again: its retries keep their place.
 */
export async function deliveryHeldBack(
  db: Database,
  deliveryId: string,
  now: Date,
): Promise<{ id: string; holdEndsAt: Date } | undefined> {
  const held = alias(webhookDeliveries, 'held')
  const [earlier] = await db
    .select({ id: webhookDeliveries.id, createdAt: webhookDeliveries.createdAt })
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
        gt(webhookDeliveries.createdAt, new Date(now.getTime() - orderHoldMs)),
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
    .limit(1)
  return earlier && { id: earlier.id, holdEndsAt: new Date(earlier.createdAt.getTime() + orderHoldMs) }
}

/** The endpoint's earliest delivery still waiting for its first attempt, to send once the one before it is done. */
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
