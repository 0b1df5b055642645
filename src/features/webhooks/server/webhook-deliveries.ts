import { randomBytes } from 'node:crypto'
import { and, arrayContains, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { defineJob, enqueue, type JobAttempt } from '#/server/jobs/queue'
import type { WebhookEventType } from '../events'
import { type DeliveryOutcome, deliverWebhook } from './delivery'
import { deliveryHeldBack, nextWaitingDelivery } from './delivery-order'
import { switchOffIfFailingSince } from './endpoint-switch-off'

/** A database or an open transaction: an event is recorded in the same transaction as the change it reports. */
type Writer = Pick<Database, 'select' | 'insert'>

export interface WebhookEvent {
  organizationId: string
  type: WebhookEventType
  data: Record<string, unknown>
}

/** A Standard Webhooks message id: `msg_` and 24 random bytes, the same on every attempt of one delivery. */
export function newMessageId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`
}

/**
 * Writes one delivery per enabled endpoint of the organization that subscribed to the event, and returns their ids
 * for `sendWebhookDeliveries` once the caller's transaction has committed (a job started earlier could run before
 * the rows are visible). Without endpoints this is one indexed read.
 */
export async function recordWebhookEvent(db: Writer, event: WebhookEvent): Promise<string[]> {
  const endpoints = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organizationId, event.organizationId),
        eq(webhookEndpoints.enabled, true),
        arrayContains(webhookEndpoints.events, [event.type]),
      ),
    )
  if (endpoints.length === 0) return []
  const rows = endpoints.map((endpoint) => ({
    id: newMessageId(),
    endpointId: endpoint.id,
    organizationId: event.organizationId,
    eventType: event.type,
    payload: event.data,
    // The moment the row is written, not the transaction's start: two events of one transaction keep their order.
    createdAt: sql`clock_timestamp()`,
  }))
  await db.insert(webhookDeliveries).values(rows)
  return rows.map((row) => row.id)
}

/** Queues the first attempt of each delivery; where no queue runs (a command-line task), the sweep sends them. */
export async function sendWebhookDeliveries(deliveryIds: readonly string[]): Promise<void> {
  for (const deliveryId of deliveryIds) await enqueue(webhookDeliveryJob, { deliveryId })
}

/** Records and queues an event outside a transaction. */
export async function publishWebhookEvent(db: Database, event: WebhookEvent): Promise<void> {
  await sendWebhookDeliveries(await recordWebhookEvent(db, event))
}

/** The first retry comes a minute after a failed attempt; later ones double (webhookDeliveryJob). */
const firstRetrySeconds = 60

/** An attempt holds its delivery this long: longer than the check, the connection and the 5 s deadline together. */
const claimMs = 30_000

export type AttemptResult = 'delivered' | 'failed' | 'not-pending' | 'skipped' | 'waiting'

export interface AttemptOptions {
  last: boolean
  manual: boolean
  /** Only a first attempt (a job that starts a delivery, not one that retries it): a second start does nothing. */
  firstOnly?: boolean
}

/**
 * One attempt at a delivery, logged in `webhook_attempts`. From the queue (`manual: false`): a first attempt waits
 * (`waiting`, with when to look again) while an earlier delivery to the endpoint is pending (delivery-order.ts); a
 * failure leaves it pending for the next retry, or after the last one `failed`; a delivery that failed for its whole
 * retry window with no success at its endpoint meanwhile switches the endpoint off and tells the organization's
 * owners and admins. "Send again" (`manual: true`) tries any delivery once more, whatever its state, and switches
 * nothing off. A delivery that stops being pending lets the next one to its endpoint go.
 */
export async function attemptDelivery(
  db: Database,
  deliveryId: string,
  options: AttemptOptions,
): Promise<{ result: AttemptResult; outcome?: DeliveryOutcome; waitUntil?: Date }> {
  const now = new Date()
  if (!options.manual) {
    const heldBack = await deliveryHeldBack(db, deliveryId, now)
    if (heldBack) return { result: 'waiting', waitUntil: heldBack.holdEndsAt }
  }
  const [delivery] = await db
    .update(webhookDeliveries)
    .set({ claimedUntil: new Date(now.getTime() + claimMs), attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        options.manual ? undefined : eq(webhookDeliveries.status, 'pending'),
        options.firstOnly ? eq(webhookDeliveries.attempts, 0) : undefined,
        or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
      ),
    )
    .returning()
  if (!delivery) return { result: 'not-pending' }
  const wasPending = delivery.status === 'pending'
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId))
  if (!endpoint || (!endpoint.enabled && !options.manual)) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'skipped', claimedUntil: null, attempts: sql`${webhookDeliveries.attempts} - 1` })
      .where(eq(webhookDeliveries.id, deliveryId))
    if (wasPending) await sendNextWaiting(db, delivery.endpointId)
    return { result: 'skipped' }
  }
  const outcome = await deliverWebhook(
    endpoint,
    { id: delivery.id, type: delivery.eventType, timestamp: delivery.createdAt, data: delivery.payload },
    { allowPrivate: getEnv().WEBHOOKS_ALLOW_PRIVATE },
  )
  await db.insert(webhookAttempts).values({
    deliveryId,
    attemptedAt: now,
    outcome: outcome.delivered ? 'delivered' : outcome.failure,
    status: outcome.status,
    durationMs: outcome.ms,
    responseExcerpt: outcome.excerpt.replaceAll('\u0000', ''),
  })
  if (outcome.delivered) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'delivered', claimedUntil: null, lastAttemptAt: now })
      .where(eq(webhookDeliveries.id, deliveryId))
    await db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id))
    if (wasPending) await sendNextWaiting(db, endpoint.id)
    return { result: 'delivered', outcome }
  }
  const givenUp = options.last && !options.manual
  await db
    .update(webhookDeliveries)
    .set({
      // "Send again" leaves the delivery where it was: a failed one stays failed, a pending one keeps its retries.
      status: options.manual ? delivery.status : givenUp ? 'failed' : 'pending',
      claimedUntil: null,
      lastAttemptAt: now,
    })
    .where(eq(webhookDeliveries.id, deliveryId))
  await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now})` })
    .where(eq(webhookEndpoints.id, endpoint.id))
  if (givenUp) {
    await switchOffIfFailingSince(db, endpoint.id, delivery.createdAt)
    await sendNextWaiting(db, endpoint.id)
  }
  // "Send again" made the first attempt of a delivery still waiting for its turn: the retries are now its own.
  if (options.manual && wasPending && delivery.attempts === 1)
    await enqueue(webhookDeliveryJob, { deliveryId, retries: true }, { startAfterSeconds: firstRetrySeconds })
  return { result: 'failed', outcome }
}

/** Queues the first attempt of the endpoint's next waiting delivery, now that the one before it is done. */
async function sendNextWaiting(db: Database, endpointId: string): Promise<void> {
  const next = await nextWaitingDelivery(db, endpointId, new Date())
  if (next) await enqueue(webhookDeliveryJob, { deliveryId: next })
}

/**
 * A delivery's attempts: the first at once, then 13 retries from a minute apart doubling to at most four hours, about
 * a day in all (pg-boss's exponential backoff adds jitter). The job fails (and so is retried) only while retries
 * remain; the last failure is recorded on the delivery, not left as a failed job for the app admins. Several jobs
 * may try to start one delivery (its own, the sweep's, the one sent when the delivery before it is done, its wait):
 * only the first start attempts it, and its retries are that job's. `retries` marks a job that continues a delivery
 * "send again" started.
 */
export const webhookDeliveryJob = defineJob<{ deliveryId: string; retries?: boolean }>({
  name: 'webhook-delivery',
  retryLimit: 13,
  retryDelaySeconds: firstRetrySeconds,
  retryDelayMaxSeconds: 4 * 3600,
  expireInSeconds: 120,
  run: async (db, { deliveryId, retries }, attempt: JobAttempt) => {
    const firstOnly = attempt.retryCount === 0 && !retries
    const { result, outcome, waitUntil } = await attemptDelivery(db, deliveryId, {
      last: attempt.last,
      manual: false,
      firstOnly,
    })
    if (result === 'waiting' && waitUntil) {
      // Looked at again when the earlier delivery's hold ends, or sooner when it is done (sendNextWaiting).
      const seconds = Math.max(1, Math.ceil((waitUntil.getTime() - Date.now()) / 1000))
      await enqueue(webhookDeliveryJob, { deliveryId }, { startAfterSeconds: seconds })
      return
    }
    if (result === 'failed' && !attempt.last) {
      throw new Error(
        `webhook delivery failed (${outcome && !outcome.delivered ? outcome.failure : 'unknown'}${outcome?.status ? ` ${outcome.status}` : ''}); will retry`,
      )
    }
  },
})

/** A delivery written where no queue ran, or whose job was lost, is sent after this long. */
const unsentAfterMs = 5 * 60_000

/**
 * Queues the first attempt of each endpoint's earliest pending delivery that never had one; returns how many. The
 * later ones follow it in order, each sent when the one before it is done.
 */
export async function sweepWebhookDeliveries(db: Database, now = new Date()): Promise<number> {
  const waiting = await db
    .selectDistinctOn([webhookDeliveries.endpointId], { id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, 0),
        lt(webhookDeliveries.createdAt, new Date(now.getTime() - unsentAfterMs)),
      ),
    )
    .orderBy(webhookDeliveries.endpointId, asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
    .limit(1000)
  await sendWebhookDeliveries(waiting.map(({ id }) => id))
  return waiting.length
}

export const webhookSweepJob = defineJob<object>({
  name: 'webhook-sweep',
  retryLimit: 1,
  schedule: { cron: '*/5 * * * *', periodSeconds: 300 },
  run: async (db) => {
    await sweepWebhookDeliveries(db)
  },
})

/** Deliveries older than this are deleted with their attempts by the daily clean-up. */
export const deliveryLogDays = 30

export async function purgeOldDeliveries(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - deliveryLogDays * 86_400_000)
  const purged = await db
    .delete(webhookDeliveries)
    .where(
      and(
        lt(webhookDeliveries.createdAt, cutoff),
        inArray(webhookDeliveries.status, ['delivered', 'failed', 'skipped']),
      ),
    )
    .returning({ id: webhookDeliveries.id })
  return purged.length
}
