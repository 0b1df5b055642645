import type { Database } from '#/server/db/client'
import { webhookDeliveries, webhookEndpoints } from '#/server/db/schema'
import type { ForeignRecords } from '../../../../tests/integration/foreign-records'

export const foreignRecordKinds = ['webhook-endpoint', 'webhook-delivery']
export const foreignRecordSecrets = ['whsec_', 'example.com/hooks']

/** The webhooks' procedures that take an endpoint or a delivery, as the authorization matrix calls them with another's. */
export async function foreignRecordInputs(db: Database, foreign: ForeignRecords): Promise<Record<string, unknown>> {
  const endpointId = 'we_not_yours'
  await db.insert(webhookEndpoints).values({
    id: endpointId,
    organizationId: foreign.organizationId,
    url: 'https://example.com/hooks',
    description: 'Not yours',
    events: ['member.added'],
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  const deliveryId = 'msg_not_yours'
  await db.insert(webhookDeliveries).values({
    id: deliveryId,
    endpointId,
    organizationId: foreign.organizationId,
    eventType: 'member.added',
    payload: { title: 'Not yours' },
    status: 'failed',
  })
  return {
    'webhooks.update': { id: endpointId, enabled: false },
    'webhooks.delete': { id: endpointId },
    'webhooks.rotateSecret': { id: endpointId },
    'webhooks.deliveries': { endpointId },
    'webhooks.resend': { id: deliveryId },
    'webhooks.sendTest': { id: endpointId },
  }
}
