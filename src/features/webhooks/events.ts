/** Sent only by "Send test event": no endpoint subscribes to it, every endpoint can be sent it. */
export const testEventType = 'webhook.test'

/** What a delivery can be: waiting for its next attempt, delivered, given up on, or not sent (endpoint off). */
export const deliveryStatuses = ['pending', 'delivered', 'failed', 'skipped'] as const
export type DeliveryStatus = (typeof deliveryStatuses)[number]

export const webhookLimits = {
  urlMax: 2048,
  descriptionMax: 200,
  /** Endpoints per organization: enough for any real set of systems, few enough that one event stays cheap. */
  endpointsMax: 20,
} as const
