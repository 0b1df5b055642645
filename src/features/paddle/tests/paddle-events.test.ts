// Paddle's webhook events read into the ledger's terms, from payloads in the shape Paddle documents for Billing
// (snake_case, amounts as strings of minor units, the price and its custom data inside each item).
import { describe, expect, it } from 'vitest'
import { changesOf, snapshotOf } from '#/features/paddle/server/events'

const hatchPrice = {
  id: 'pri_01hatchprice',
  product_id: 'pro_01hatchproduct',
  unit_price: { amount: '4900', currency_code: 'USD' },
  billing_cycle: { interval: 'month', frequency: 1 },
  quantity: { minimum: 3, maximum: 3 },
  custom_data: {
    hatch_order_id: 'order-1',
    hatch_organization_id: 'org-1',
    hatch_plan: 'team',
    hatch_interval: 'monthly',
  },
}

function transaction(overrides: Record<string, unknown> = {}) {
  return {
    id: 'txn_01checkout',
    status: 'completed',
    customer_id: 'ctm_01buyer',
    address_id: 'add_01buyer',
    currency_code: 'USD',
    origin: 'api',
    subscription_id: 'sub_01team',
    invoice_id: 'inv_01',
    collection_mode: 'automatic',
    billing_period: { starts_at: '2026-11-28T10:00:00.000Z', ends_at: '2026-12-28T10:00:00.000Z' },
    items: [{ price_id: hatchPrice.id, price: hatchPrice, quantity: 3, proration: null }],
    details: { totals: { subtotal: '14700', tax: '2940', total: '17640', grand_total: '17640', currency_code: 'USD' } },
    custom_data: null,
    ...overrides,
  }
}

describe('Paddle events in the ledger’s terms', () => {
  it('reads a checkout’s completed transaction as the order paid, its payment and its subscription', () => {
    expect(changesOf('transaction.completed', transaction())).toEqual([
      {
        type: 'checkout.completed',
        orderId: 'order-1',
        checkoutId: 'txn_01checkout',
        paid: true,
        subscriptionId: 'sub_01team',
        customerId: 'ctm_01buyer',
      },
      {
        type: 'payment.succeeded',
        orderId: 'order-1',
        subscriptionId: 'sub_01team',
        invoiceId: 'txn_01checkout',
        paymentId: 'txn_01checkout',
        // What the buyer paid, tax included.
        amount: 17640,
        currency: 'USD',
        periodStart: new Date('2026-11-28T10:00:00.000Z'),
        periodEnd: new Date('2026-12-28T10:00:00.000Z'),
      },
      { type: 'subscription.changed', subscriptionId: 'sub_01team' },
    ])
  })

  it('reads a renewal as a payment of no order, and a change’s transaction as a change', () => {
    const renewal = changesOf(
      'transaction.completed',
      transaction({ id: 'txn_01renew', origin: 'subscription_recurring' }),
    )
    expect(renewal.map((change) => change.type)).toEqual(['payment.succeeded', 'subscription.changed'])
    expect(renewal[0]).toMatchObject({ orderId: undefined, invoiceId: 'txn_01renew' })
    expect(renewal[0]).not.toHaveProperty('reason')
    const change = changesOf(
      'transaction.completed',
      transaction({ id: 'txn_01change', origin: 'subscription_update' }),
    )
    expect(change[0]).toMatchObject({ type: 'payment.succeeded', reason: 'change', invoiceId: 'txn_01change' })
    // Recorded once, on "completed": both events come for every renewal and change.
    expect(changesOf('transaction.paid', transaction({ id: 'txn_01renew', origin: 'subscription_recurring' }))).toEqual(
      [{ type: 'subscription.changed', subscriptionId: 'sub_01team' }],
    )
  })

  it('ignores what Hatch did not sell and what buyers can set', () => {
    const foreignPrice = { ...hatchPrice, custom_data: { plan: 'someone else’s' } }
    const foreign = transaction({ items: [{ price_id: 'pri_other', price: foreignPrice, quantity: 1 }] })
    expect(changesOf('transaction.completed', foreign)).toEqual([])
    // A transaction's own custom data can be written from the browser: it names no order.
    const claimed = transaction({
      items: [{ price_id: 'pri_other', price: foreignPrice, quantity: 1 }],
      custom_data: hatchPrice.custom_data,
    })
    expect(changesOf('transaction.completed', claimed)).toEqual([])
    // A transaction made in the browser with the public client token is never one of Hatch's checkouts.
    expect(changesOf('transaction.completed', transaction({ origin: 'web' }))).toEqual([
      { type: 'subscription.changed', subscriptionId: 'sub_01team' },
    ])
    // A card update: a zero transaction of the subscription, no sale.
    const cardUpdate = transaction({ origin: 'subscription_payment_method_change' })
    expect(changesOf('transaction.completed', cardUpdate)).toEqual([
      { type: 'subscription.changed', subscriptionId: 'sub_01team' },
    ])
    expect(changesOf('customer.updated', { id: 'ctm_01buyer' })).toEqual([])
    expect(changesOf('transaction.completed', 'not an object')).toEqual([])
  })

  it('fails nothing at checkout while the buyer may try another card, and closes a canceled checkout', () => {
    expect(changesOf('transaction.payment_failed', transaction({ status: 'ready', subscription_id: null }))).toEqual([])
    expect(changesOf('transaction.canceled', transaction({ status: 'canceled', subscription_id: null }))).toEqual([
      { type: 'checkout.expired', orderId: 'order-1', checkoutId: 'txn_01checkout', reason: 'canceled' },
    ])
  })

  it('counts an approved refund by the running total it is given, and no refund awaiting approval', () => {
    const refund = {
      id: 'adj_01',
      action: 'refund',
      status: 'approved',
      transaction_id: 'txn_01checkout',
      totals: { total: '500' },
    }
    expect(changesOf('adjustment.created', refund, 1200)).toEqual([
      { type: 'payment.refunded', paymentId: 'txn_01checkout', amountRefunded: 1200 },
    ])
    expect(changesOf('adjustment.created', { ...refund, status: 'pending_approval' }, 1200)).toEqual([])
    expect(changesOf('adjustment.created', { ...refund, action: 'credit' }, 1200)).toEqual([])
  })

  it('reads a subscription with a scheduled cancellation as active until the period ends, and a paused one as not granting the plan', () => {
    const subscription = {
      id: 'sub_01team',
      status: 'active',
      customerId: 'ctm_01buyer',
      currencyCode: 'USD',
      canceledAt: null,
      currentBillingPeriod: { startsAt: '2026-11-28T10:00:00.000Z', endsAt: '2026-12-28T10:00:00.000Z' },
      scheduledChange: { action: 'cancel', effectiveAt: '2026-12-28T10:00:00.000Z' },
      items: [
        {
          status: 'active',
          quantity: 3,
          price: {
            productId: 'pro_01hatchproduct',
            unitPrice: { amount: '4900' },
            billingCycle: { interval: 'month', frequency: 1 },
            customData: hatchPrice.custom_data,
          },
        },
      ],
    }
    expect(snapshotOf({ ...subscription, status: 'paused', scheduledChange: null })?.status).toBe('incomplete')
    const snapshot = snapshotOf(subscription)
    expect(snapshot).toMatchObject({
      organizationId: 'org-1',
      planId: 'team',
      interval: 'monthly',
      seats: 3,
      amount: 14700,
      status: 'active',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: new Date('2026-12-28T10:00:00.000Z'),
    })
  })
})
