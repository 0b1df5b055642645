// With Paddle, a paid order's receipt is Paddle's own invoice PDF: its link lasts an hour, so Hatch asks Paddle for it
// each time the customer opens the receipt (a fake Paddle API here, called by the official SDK) and sends them there.
// Where Paddle has none to give, the customer still gets Hatch's receipt.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleBillingWebhook } from '#/features/billing/server/webhook'
import { billingOrders } from '#/server/db/schema'
import { type FakePaddle, type FakePaddleEvent, signedPaddleDelivery, startFakePaddle } from '../support/fake-paddle'
import { type OrganizationHarness, organizationHarness } from './organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from './test-databases'

const apiKey = 'pdl_sdbx_apikey_hatch_receipts'
const webhookSecret = `pdl_ntfset_${randomBytes(16).toString('hex')}`
const variables = [
  'PADDLE_API_KEY',
  'PADDLE_WEBHOOK_SECRET',
  'PADDLE_CLIENT_TOKEN',
  'PADDLE_ENVIRONMENT',
  'PADDLE_API_URL',
]
let fake: FakePaddle

// The environment is read once, on first use: it must name Paddle before any request.
beforeAll(async () => {
  fake = await startFakePaddle({ apiKey })
  process.env.PADDLE_API_KEY = apiKey
  process.env.PADDLE_WEBHOOK_SECRET = webhookSecret
  process.env.PADDLE_CLIENT_TOKEN = 'test_hatchclienttoken0123456789'
  process.env.PADDLE_ENVIRONMENT = 'sandbox'
  process.env.PADDLE_API_URL = fake.url
})
afterAll(async () => {
  for (const name of variables) delete process.env[name]
  await fake.close()
})

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
    const { body, headers } = signedPaddleDelivery(event, webhookSecret)
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
    const paid = fake.completeCheckout(started?.providerCheckoutId ?? '')
    for (const event of [
      fake.event('transaction.paid', paid.transaction),
      fake.event('subscription.created', paid.subscription),
      fake.event('transaction.completed', paid.transaction),
    ]) {
      expect(await deliver(event), event.event_type).toBe(200)
    }

    fake.requests.length = 0
    const opened = await h.trpc<OpenedReceipt>('query', 'billing.receipt.open', owner.cookie, { orderId })
    expect(opened.error).toBeUndefined()
    expect(opened.data).toEqual({
      redirectUrl: `${fake.url}/invoices/${paid.transaction.id}.pdf?disposition=inline`,
      receipt: null,
    })
    expect(
      fake.requests.some((request) => request.path === `/transactions/${paid.transaction.id}/invoice`),
      'the link is asked for now, not stored',
    ).toBe(true)

    // A payment Paddle has no invoice for (the transaction is gone from its side): Hatch's receipt, with the amount.
    await db().update(billingOrders).set({ providerInvoiceId: 'txn_01unknown' }).where(eq(billingOrders.id, orderId))
    const fallback = await h.trpc<OpenedReceipt>('query', 'billing.receipt.open', owner.cookie, { orderId })
    expect(fallback.data).toMatchObject({ redirectUrl: null, receipt: { amount: 1900, currency: 'USD', test: false } })
  })
})
