import { allEventKinds } from '#/event-kinds.gen'
import { m } from '#/paraglide/messages'
import type { DeliveryStatus } from '../events'

/**
 * What an event means, in the page's language (the event's own name is shown beside it, as receivers see it); none for
 * a kind no installed part reports any more (an endpoint may still list it).
 */
export function eventLabel(type: string): string | undefined {
  return allEventKinds.find((kind) => kind.type === type)?.label()
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
