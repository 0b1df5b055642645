import { randomBytes } from 'node:crypto'
import { and, arrayContains, eq, gte, inArray, isNull, lt, notExists, or, sql } from 'drizzle-orm'
import { membersWithRoles, notify } from '#/features/notifications/server'
import { type Locale, locales } from '#/lib/i18n'
import type { Database } from '#/server/db/client'
import { members, users, webhookAttempts, webhookDeliveries, webhookEndpoints } from '#/server/db/schema'
import { sendEmail } from '#/server/email/mailer'
import { getEnv } from '#/server/env'
import { defineJob, enqueue, type JobAttempt } from '#/server/jobs/queue'
import { log } from '#/server/log'
import { getSiteSettings } from '#/server/settings'
import type { WebhookEventType } from '../events'
import { type DeliveryOutcome, deliverWebhook } from './delivery'
import { webhookDisabledEmail } from './webhook-emails'

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

/** An attempt holds its delivery this long: longer than the check, the connection and the 5 s deadline together. */
const claimMs = 30_000

export type AttemptResult = 'delivered' | 'failed' | 'not-pending' | 'skipped'

/**
 * One attempt at a delivery, logged in `webhook_attempts`. From the queue (`manual: false`): a failure leaves it
 * pending for the next retry, or after the last one `failed`; a delivery that failed for its whole retry window
 * with no success at its endpoint meanwhile switches the endpoint off and tells the organization's owners and
 * admins. "Send again" (`manual: true`) tries any delivery once more, whatever its state, and switches nothing off.
 */
export async function attemptDelivery(
  db: Database,
  deliveryId: string,
  options: { last: boolean; manual: boolean },
): Promise<{ result: AttemptResult; outcome?: DeliveryOutcome }> {
  const now = new Date()
  const [delivery] = await db
    .update(webhookDeliveries)
    .set({ claimedUntil: new Date(now.getTime() + claimMs), attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        options.manual ? undefined : eq(webhookDeliveries.status, 'pending'),
        or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
      ),
    )
    .returning()
  if (!delivery) return { result: 'not-pending' }
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId))
  if (!endpoint || (!endpoint.enabled && !options.manual)) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'skipped', claimedUntil: null, attempts: sql`${webhookDeliveries.attempts} - 1` })
      .where(eq(webhookDeliveries.id, deliveryId))
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
  if (givenUp) await switchOffIfFailingSince(db, endpoint.id, delivery.createdAt)
  return { result: 'failed', outcome }
}

/**
 * Switches an endpoint off when nothing reached it since `since` (the first attempt of a delivery that has now used
 * every retry, about a day): a receiver that is gone stops costing a day of retries per event. Its pending
 * deliveries are then skipped; the owners and admins get an email saying so, with a link to switch it on again.
 */
async function switchOffIfFailingSince(db: Database, endpointId: string, since: Date): Promise<void> {
  const reachedSince = db
    .select({ one: sql`1` })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookAttempts.outcome, 'delivered'),
        gte(webhookAttempts.attemptedAt, since),
      ),
    )
  const [switchedOff] = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: 'failing', updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true), notExists(reachedSince)))
    .returning()
  if (!switchedOff) return
  log().warn({ endpointId, organizationId: switchedOff.organizationId }, 'a failing webhook endpoint was switched off')
  const recipients = await db
    .selectDistinct({ email: users.email, name: users.name })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(
      and(
        eq(members.organizationId, switchedOff.organizationId),
        sql`string_to_array(replace(${members.role}, ' ', ''), ',') && array['owner', 'admin']`,
      ),
    )
  await notify(db, await membersWithRoles(db, switchedOff.organizationId, ['owner', 'admin']), {
    type: 'webhook_disabled',
    organizationId: switchedOff.organizationId,
    params: { url: switchedOff.url },
    link: `/console/organization/webhooks?endpoint=${encodeURIComponent(switchedOff.id)}`,
  })
  const locale = (locales as readonly string[]).includes(switchedOff.locale) ? (switchedOff.locale as Locale) : 'en'
  const { productName } = await getSiteSettings(db)
  for (const recipient of recipients) {
    await sendEmail(
      db,
      webhookDisabledEmail({
        to: recipient.email,
        name: recipient.name,
        endpointUrl: switchedOff.url,
        url: `${getEnv().APP_URL}/${locale}/console/organization/webhooks?endpoint=${encodeURIComponent(switchedOff.id)}`,
        product: productName,
        locale,
      }),
    )
  }
}

/**
 * A delivery's attempts: the first at once, then 13 retries from a minute apart doubling to at most four hours, about
 * a day in all (pg-boss's exponential backoff adds jitter). The job fails (and so is retried) only while retries
 * remain; the last failure is recorded on the delivery, not left as a failed job for the app admins.
 */
export const webhookDeliveryJob = defineJob<{ deliveryId: string }>({
  name: 'webhook-delivery',
  retryLimit: 13,
  retryDelaySeconds: 60,
  retryDelayMaxSeconds: 4 * 3600,
  expireInSeconds: 120,
  run: async (db, { deliveryId }, attempt: JobAttempt) => {
    const { result, outcome } = await attemptDelivery(db, deliveryId, { last: attempt.last, manual: false })
    if (result === 'failed' && !attempt.last) {
      throw new Error(
        `webhook delivery failed (${outcome && !outcome.delivered ? outcome.failure : 'unknown'}${outcome?.status ? ` ${outcome.status}` : ''}); will retry`,
      )
    }
  },
})

/** A delivery written where no queue ran, or whose job was lost, is sent after this long. */
const unsentAfterMs = 5 * 60_000

/** Queues the first attempt of each pending delivery that never had one; returns how many. */
export async function sweepWebhookDeliveries(db: Database, now = new Date()): Promise<number> {
  const waiting = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, 0),
        lt(webhookDeliveries.createdAt, new Date(now.getTime() - unsentAfterMs)),
      ),
    )
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
