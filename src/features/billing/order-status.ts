/**
 * An order moves only forward: pending → paid | failed | canceled | expired; paid → partially_refunded → refunded. Providers
 * deliver events late, twice and out of order, so a step backwards (a late "checkout completed" after a refund, an
 * "expired" after the payment) is ignored instead of applied.
 */
export type OrderStatus = 'pending' | 'paid' | 'failed' | 'canceled' | 'expired' | 'partially_refunded' | 'refunded'
export const orderStatuses = [
  'pending',
  'paid',
  'failed',
  'canceled',
  'expired',
  'partially_refunded',
  'refunded',
] as const satisfies readonly OrderStatus[]

export type OrderStep =
  | { kind: 'paid' }
  | { kind: 'failed' }
  | { kind: 'canceled' }
  | { kind: 'expired' }
  | { kind: 'refunded'; amountRefunded: number; amount: number }

/** The status after `step`, or null when the step does not apply to an order in `current`. */
export function nextOrderStatus(current: OrderStatus, step: OrderStep): OrderStatus | null {
  switch (step.kind) {
    case 'paid':
      return current === 'pending' || current === 'failed' ? 'paid' : null
    case 'failed':
    case 'canceled':
    case 'expired':
      return current === 'pending' ? step.kind : null
    case 'refunded': {
      // A refund proves the payment, so it also settles an order whose payment event has not arrived yet.
      if (current === 'failed' || current === 'canceled' || current === 'expired' || current === 'refunded') return null
      if (step.amountRefunded <= 0) return null
      return step.amountRefunded >= step.amount ? 'refunded' : 'partially_refunded'
    }
  }
}
