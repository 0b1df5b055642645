import { defineEventKinds } from '#/lib/event-kinds'
import { m } from '#/paraglide/messages'

/** What billing reports happening in an organization (src/lib/event-kinds.ts): an order paid, its subscription changed. */
export const eventKinds = defineEventKinds([
  { type: 'order.paid', label: m.event_order_paid },
  { type: 'subscription.updated', label: m.event_subscription_updated },
])
