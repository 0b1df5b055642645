import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleBillingWebhook } from '#/features/billing/server'
import { billingOrders } from '#/server/db/schema'
import { type OrganizationHarness, organizationHarness } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type FakePaddleEvent, signedPaddleDelivery } from './fake-paddle'
import { paddleProvider } from './paddle-for-tests'

const paddle = paddleProvider('pdl_sdbx_apikey_hatch_receipts')

interface OpenedReceipt {
  redirectUrl: string | null
  receipt: { amount: number; currency: string; test: boolean } | null
}

describe.each(engines)('Paddle receipts on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
  })
  afterAll(async () => {
    await database?.dispose()
  })

  const deliver = async (event: FakePaddleEvent) => {
    const { body, headers } = signedPaddleDelivery(event, paddle.webhookSecret)
    return (await handleBillingWebhook(db(), 'paddle', body, headers)).status
  }

  it('sends the customer to Paddle’s invoice of the payment, asked for when they open it', async () => {
    const owner = await h.signUp('Rita Receipt')
    const start = await h.trpc<{ orderId: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
      locale: 'en',
    })
    expect(start.error).toBeUndefined()
    const orderId = start.data?.orderId ?? ''
    const [started] = await db().select().from(billingOrders).where(eq(billingOrders.id, orderId))
    const paid = paddle.fake.completeCheckout(started?.providerCheckoutId ?? '')
    for (const event of [
      paddle.fake.event('transaction.paid', paid.transaction),
      paddle.fake.event('subscription.created', paid.subscription),
      paddle.fake.event('transaction.completed', paid.transaction),
    ]) {
      expect(await deliver(event), event.event_type).toBe(200)
    }

    paddle.fake.requests.length = 0
    const opened = await h.trpc<OpenedReceipt>('query', 'billing.receipt.open', owner.cookie, { orderId })
    expect(opened.error).toBeUndefined()
    expect(opened.data).toEqual({
      redirectUrl: `${paddle.fake.url}/invoices/${paid.transaction.id}.pdf?disposition=inline`,
      receipt: null,
    })
    expect(
      paddle.fake.requests.some((request) => request.path === `/transactions/${paid.transaction.id}/invoice`),
      'the link is asked for now, not stored',
    ).toBe(true)

    // A payment Paddle has no invoice for (the transaction is gone from its side): Hatch's receipt, with the amount.
    await db().update(billingOrders).set({ providerInvoiceId: 'txn_01unknown' }).where(eq(billingOrders.id, orderId))
    const fallback = await h.trpc<OpenedReceipt>('query', 'billing.receipt.open', owner.cookie, { orderId })
    expect(fallback.data).toMatchObject({ redirectUrl: null, receipt: { amount: 1900, currency: 'USD', test: false } })
  })
})
