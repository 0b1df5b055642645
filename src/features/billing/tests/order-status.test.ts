import { describe, expect, it } from 'vitest'
import { orderStatusLabel } from '../billing-format'
import { nextOrderStatus, type OrderStatus } from '../order-status'

describe('the order state machine', () => {
  it('settles a pending order as paid, failed or canceled', () => {
    expect(nextOrderStatus('pending', { kind: 'paid' })).toBe('paid')
    expect(nextOrderStatus('pending', { kind: 'failed' })).toBe('failed')
    expect(nextOrderStatus('pending', { kind: 'canceled' })).toBe('canceled')
  })

  it('ignores late events that would move an order backwards', () => {
    expect(nextOrderStatus('paid', { kind: 'canceled' })).toBeNull()
    expect(nextOrderStatus('paid', { kind: 'failed' })).toBeNull()
    expect(nextOrderStatus('refunded', { kind: 'paid' })).toBeNull()
    expect(nextOrderStatus('canceled', { kind: 'paid' })).toBeNull()
  })

  it('lets a retried payment succeed after a failure', () => {
    expect(nextOrderStatus('failed', { kind: 'paid' })).toBe('paid')
  })

  it('refunds partly, then fully, and never refunds what was not paid', () => {
    const refund = (current: OrderStatus, amountRefunded: number) =>
      nextOrderStatus(current, { kind: 'refunded', amountRefunded, amount: 1900 })
    expect(refund('paid', 500)).toBe('partially_refunded')
    expect(refund('partially_refunded', 1900)).toBe('refunded')
    expect(refund('paid', 0)).toBeNull()
    expect(refund('failed', 1900)).toBeNull()
    expect(refund('canceled', 1900)).toBeNull()
    // A refund that arrives before the payment event proves the payment.
    expect(refund('pending', 1900)).toBe('refunded')
  })
})

describe('the words for an order’s status', () => {
  it('keeps "Processing" for a payment on its way; an unfinished checkout is "Not finished"', () => {
    expect(orderStatusLabel('pending', true)).toBe('Processing')
    expect(orderStatusLabel('pending', false)).toBe('Not finished')
    expect(orderStatusLabel('canceled', false)).toBe('Canceled')
  })
})
