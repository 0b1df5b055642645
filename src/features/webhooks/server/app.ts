import { defineServerApp } from '#/server/app-manifest'

const deliveries = () => import('./webhook-deliveries')

/** Outgoing webhooks: the organizations' events (src/server/organization-events.ts) sent to their endpoints. */
export const serverApp = defineServerApp({
  name: 'webhooks',
  events: async () => {
    const { recordWebhookEvent, sendWebhookDeliveries } = await deliveries()
    return { record: recordWebhookEvent, send: sendWebhookDeliveries }
  },
  jobs: async () => {
    const { webhookDeliveryJob, webhookSweepJob } = await deliveries()
    return [webhookDeliveryJob, webhookSweepJob]
  },
  maintenanceTasks: [
    {
      name: 'deleting webhook deliveries older than 30 days',
      run: async (db) => (await deliveries()).purgeOldDeliveries(db),
    },
  ],
})
