// With Polar, a paid order's receipt is Polar's own receipt PDF behind a presigned link that soon expires: Hatch asks
// Polar for it each time the customer opens the receipt (a fake Polar API here, called by the official SDK).
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleBillingWebhook } from '#/features/billing/server/webhook'
import { billingOrders } from '#/server/db/schema'
import { type FakePolar, type FakePolarEvent, signedPolarDelivery, startFakePolar } from '../support/fake-polar'
import { type OrganizationHarness, organizationHarness } from './organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from './test-databases'

const accessToken = 'polar_oat_hatch_receipts'
const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`
let fake: FakePolar

beforeAll(async () => {
  fake = await startFakePolar({ accessToken })
  process.env.POLAR_ACCESS_TOKEN = accessToken
  process.env.POLAR_WEBHOOK_SECRET = webhookSecret
  process.env.POLAR_API_URL = fake.url
  process.env.POLAR_SERVER = 'sandbox'
})
afterAll(async () => {
  for (const name of ['POLAR_ACCESS_TOKEN', 'POLAR_WEBHOOK_SECRET', 'POLAR_API_URL', 'POLAR_SERVER']) {
    delete process.env[name]
  }
  await fake.close()
})

interface OpenedReceipt {
  redirectUrl: string | null
  receipt: { amount: number; currency: string } | null
}

describe.each(engines)('Polar receipts on %s', (engine) => {
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

  const deliver = async (event: FakePolarEvent) => {
    const { body, headers } = signedPolarDelivery(event, webhookSecret)
    return (await handleBillingWebhook(db(), 'polar', body, headers)).status
  }

  it('sends the customer to Polar’s receipt of the order, and to nobody else', async () => {
    const owner = await h.signUp('Pia Polarreceipt')
    const outsider = await h.signUp('Otto Outside')
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
      fake.event('checkout.updated', paid.checkout),
      fake.event('subscription.created', paid.subscription),
      fake.event('order.paid', paid.order),
    ]) {
      expect(await deliver(event), event.type).toBe(200)
    }

    const opened = await h.trpc<OpenedReceipt>('query', 'billing.receipt.open', owner.cookie, { orderId })
    expect(opened.error).toBeUndefined()
    expect(opened.data).toEqual({
      redirectUrl: `${fake.url}/receipts/${paid.order.id}.pdf?expires=3600`,
      receipt: null,
    })

    fake.requests.length = 0
    const refused = await h.trpc<OpenedReceipt>('query', 'billing.receipt.open', outsider.cookie, { orderId })
    expect(refused.status).toBe(404)
    expect(fake.requests, 'Polar is not even asked for someone who may not see it').toEqual([])
  })
})
