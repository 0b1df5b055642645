// What other features may use of webhooks (the import rules in .dependency-cruiser.cjs allow nothing else): the
// features whose changes are webhook events record them here. It imports nothing of tRPC or auth, so the Better Auth
// configuration (which composes the organizations feature, a publisher) can load it without an import cycle.
export {
  publishWebhookEvent,
  purgeOldDeliveries,
  recordWebhookEvent,
  sendWebhookDeliveries,
  type WebhookEvent,
} from './webhook-deliveries'
