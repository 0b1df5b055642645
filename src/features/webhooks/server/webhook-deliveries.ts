import { randomBytes } from 'node:crypto'
import { and, arrayContains, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { defineJob, enqueue, type JobAttempt, runningQueue } from '#/server/jobs/queue'
import type { EventWriter, OrganizationEvent } from '#/server/organization-events'
import { type DeliveryOutcome, deliverWebhook } from './delivery'
import { deliveryHold, nextWaitingDelivery } from './delivery-order'
import { switchOffIfFailingSince } from './endpoint-switch-off'

/** What is sent: an organization's event (its `type` one of webhookEventTypes, or the test event). */
export type WebhookEvent = OrganizationEvent

/** A Standard Webhooks message id: `msg_` and 24 random bytes, the same on every attempt of one delivery. */
export function newMessageId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`
}

/**
 * Writes one delivery per enabled endpoint of the organization that subscribed to the event, and returns their ids
 * for `sendWebhookDeliveries` once the caller's transaction has committed (a job started earlier could run before
 * the rows are visible). Without endpoints this is one indexed read.
 */
export async function recordWebhookEvent(db: EventWriter, event: WebhookEvent): Promise<string[]> {
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
  for (const deliveryId of deliveryIds) await queueDeliveryJob(deliveryId)
}

/**
 * Makes sure one job is queued for the delivery and returns its id: pg-boss's `upsert` by singletonKey keeps at most
 * one waiting job per key (a unique index) and edits that job instead of adding another, whoever asks (its own
 * start, the sweep, the delivery before it finishing, its wake-up). `at` moves the job to then; without it a queued
 * job keeps its time. Before this process's queue has started, a plain send, which a later upsert then edits.
 */
async function queueDeliveryJob(deliveryId: string, at?: Date): Promise<string | null> {
  const boss = runningQueue()
  if (!boss) {
    const seconds = at ? Math.max(0, Math.ceil((at.getTime() - Date.now()) / 1000)) : undefined
    return enqueue(webhookDeliveryJob, { deliveryId }, { singletonKey: deliveryId, startAfterSeconds: seconds })
  }
  const { jobs } = await boss.upsert(
    webhookDeliveryJob.name,
    { deliveryId },
    { singletonKey: deliveryId, ...(at ? { startAfter: at } : {}) },
  )
  return jobs[0] ?? null
}

/**
 * Queues a waiting delivery's first attempt for when it can go: at once when nothing holds it, when the last hold
 * ends when attempted deliveries hold it, and not at all while an earlier one has not been attempted (that one's
 * attempt queues the next). Moving the job later could overwrite a "go now" sent by the delivery before it as it
 * finished, so the hold is read again after such a move.
 */
async function queueFirstAttempt(db: Database, deliveryId: string): Promise<void> {
  let queuedAt: number | undefined
  for (let look = 0; look < 3; look++) {
    const hold = await deliveryHold(db, deliveryId, new Date())
    if (hold?.until === null) return
    const at = hold?.until ?? new Date()
    if (queuedAt !== undefined && at.getTime() >= queuedAt) return
    await queueDeliveryJob(deliveryId, at)
    queuedAt = at.getTime()
    if (!hold) return
  }
}

/** The endpoint's next waiting delivery, queued for when it can go, now that the one before it moved on. */
async function queueNextWaiting(db: Database, endpointId: string): Promise<void> {
  const next = await nextWaitingDelivery(db, endpointId, new Date())
  if (next) await queueFirstAttempt(db, next)
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
  /**
   * The queue job making the attempt: it may make a delivery's first attempt, or a retry when the delivery's retries
   * are its own; any other job finds it `not-pending`, so one delivery never has two chains of retries.
   */
  jobId?: string
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
): Promise<{ result: AttemptResult; outcome?: DeliveryOutcome; hold?: { until: Date | null } }> {
  const now = new Date()
  if (!options.manual) {
    const hold = await deliveryHold(db, deliveryId, now)
    if (hold) return { result: 'waiting', hold }
  }
  const [delivery] = await db
    .update(webhookDeliveries)
    .set({
      claimedUntil: new Date(now.getTime() + claimMs),
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      firstAttemptAt: sql`coalesce(${webhookDeliveries.firstAttemptAt}, ${now})`,
      ...(options.manual ? {} : { retriesJobId: options.jobId ?? null }),
    })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        options.manual ? undefined : eq(webhookDeliveries.status, 'pending'),
        // No owner: attempted before owners were recorded, or by "send again" where no queue ran; any job may go on.
        options.manual
          ? undefined
          : or(
              eq(webhookDeliveries.attempts, 0),
              eq(webhookDeliveries.retriesJobId, options.jobId ?? ''),
              isNull(webhookDeliveries.retriesJobId),
            ),
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
    if (wasPending) await queueNextWaiting(db, delivery.endpointId)
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
    requestUrl: outcome.request?.url,
    requestHeaders: outcome.request?.headers,
    requestBody: outcome.request?.body,
    responseHeaders: outcome.responseHeaders,
  })
  if (outcome.delivered) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'delivered', claimedUntil: null, lastAttemptAt: now })
      .where(eq(webhookDeliveries.id, deliveryId))
    await db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id))
    if (wasPending) await queueNextWaiting(db, endpoint.id)
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
  if (givenUp) await switchOffIfFailingSince(db, endpoint.id, delivery.firstAttemptAt ?? delivery.createdAt)
  // "Send again" made the first attempt of a delivery still waiting for its turn: a job takes over its retries.
  if (options.manual && wasPending && delivery.attempts === 1) {
    const retriesJobId = await queueDeliveryJob(deliveryId, new Date(now.getTime() + firstRetrySeconds * 1000))
    await db.update(webhookDeliveries).set({ retriesJobId }).where(eq(webhookDeliveries.id, deliveryId))
  }
  // The next waiting delivery is now held by this one's first attempt for an hour at most, or no longer held.
  if (wasPending && (givenUp || delivery.attempts === 1)) await queueNextWaiting(db, endpoint.id)
  return { result: 'failed', outcome }
}

/**
 * A delivery's attempts: the first at once, then 13 retries from a minute apart doubling to at most four hours, about
 * a day in all (pg-boss's exponential backoff adds jitter). The job fails (and so is retried) only while retries
 * remain; the last failure is recorded on the delivery, not left as a failed job for the app admins. A delivery has
 * at most one queued job (queueDeliveryJob); the job that makes its first attempt owns its retries (`retries_job_id`),
 * and any other that reaches it finds nothing to do. A waiting delivery's job ends and a new one is queued for when
 * its hold can end (queueFirstAttempt), or none while an earlier delivery has not been attempted.
 */
export const webhookDeliveryJob = defineJob<{ deliveryId: string }>({
  name: 'webhook-delivery',
  retryLimit: 13,
  retryDelaySeconds: firstRetrySeconds,
  retryDelayMaxSeconds: 4 * 3600,
  expireInSeconds: 120,
  run: async (db, { deliveryId }, attempt: JobAttempt) => {
    const { result, outcome, hold } = await attemptDelivery(db, deliveryId, {
      last: attempt.last,
      manual: false,
      jobId: attempt.jobId,
    })
    if (result === 'waiting') {
      // Looked at again once, when the last hold can end; sooner if the delivery before it is done first.
      if (hold?.until) await queueFirstAttempt(db, deliveryId)
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
 * Makes sure each endpoint's earliest pending delivery that never had an attempt has a job (one whose job was lost,
 * or written where no queue ran), leaving a queued wake-up at its time; returns how many. The later ones follow it
 * in order, each queued when the one before it has had its turn.
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
  for (const { id } of waiting) await queueDeliveryJob(id)
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
