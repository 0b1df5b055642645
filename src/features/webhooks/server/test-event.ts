import type { Database } from '#/server/db/client'
import { webhookDeliveries } from '#/server/db/schema'
import { consumeRateLimit, type RateLimitRule } from '#/server/rate-limit'
import { tooManyRequests } from '#/server/trpc/init'
import { testEventType } from '../events'
import { newMessageId, sendWebhookDeliveries } from './webhook-deliveries'

/**
 * "Send test event" per endpoint: enough to try a receiver a few times while writing it, few enough that the button
 * cannot be used to make the server call a URL over and over.
 */
const testEventLimit: RateLimitRule = { limit: 5, windowMs: 60_000 }

/**
 * Records a `webhook.test` delivery for one endpoint and queues it like any event: signed, logged, retried and kept in
 * order behind the endpoint's earlier deliveries, so what the receiver sees is what a real event would look like.
 */
export async function queueTestEvent(
  db: Database,
  endpoint: { id: string; organizationId: string },
): Promise<{ deliveryId: string }> {
  const rate = await consumeRateLimit(db, `webhook-test:${endpoint.id}`, testEventLimit)
  if (!rate.allowed) {
    throw tooManyRequests(rate.retryAfterSeconds, `Too many test events; try again in ${rate.retryAfterSeconds} s.`)
  }
  const deliveryId = newMessageId()
  await db.insert(webhookDeliveries).values({
    id: deliveryId,
    endpointId: endpoint.id,
    organizationId: endpoint.organizationId,
    eventType: testEventType,
    payload: { endpointId: endpoint.id, test: true },
  })
  await sendWebhookDeliveries([deliveryId])
  return { deliveryId }
}
