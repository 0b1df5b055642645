import { m } from '#/paraglide/messages'
import type { DeliveryStatus, WebhookEventType } from '../events'

/** What each event means, in the page's language (the event's own name is shown beside it, as receivers see it). */
export const eventLabels: Record<WebhookEventType, () => string> = {
  'book.created': m.webhooks_event_book_created,
  'book.updated': m.webhooks_event_book_updated,
  'book.deleted': m.webhooks_event_book_deleted,
  'member.added': m.webhooks_event_member_added,
  'member.removed': m.webhooks_event_member_removed,
  'order.paid': m.webhooks_event_order_paid,
  'subscription.updated': m.webhooks_event_subscription_updated,
}

export const deliveryStatusLabels: Record<DeliveryStatus, () => string> = {
  pending: m.webhooks_delivery_status_pending,
  delivered: m.webhooks_delivery_status_delivered,
  failed: m.webhooks_delivery_status_failed,
  skipped: m.webhooks_delivery_status_skipped,
}

/** One attempt's outcome as a person reads it. */
export function attemptLabel(attempt: { outcome: string; status: number | null }): string {
  const status = String(attempt.status ?? '')
  switch (attempt.outcome) {
    case 'delivered':
      return `${m.webhooks_attempt_delivered()} · ${m.webhooks_attempt_status({ status })}`
    case 'status':
      return m.webhooks_attempt_status({ status })
    case 'redirect':
      return m.webhooks_attempt_redirect({ status })
    case 'timeout':
      return m.webhooks_attempt_timeout()
    case 'refused-destination':
      return m.webhooks_attempt_refused()
    default:
      return m.webhooks_attempt_network()
  }
}
