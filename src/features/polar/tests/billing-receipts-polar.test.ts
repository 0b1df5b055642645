import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleBillingWebhook } from '#/features/billing/server'
import { billingOrders } from '#/server/db/schema'
import { type OrganizationHarness, organizationHarness } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type FakePolarEvent, signedPolarDelivery } from './fake-polar'
import { polarProvider } from './polar-for-tests'

const polar = polarProvider('polar_oat_hatch_receipts')

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
    const { body, headers } = signedPolarDelivery(event, polar.webhookSecret)
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
    const paid = polar.fake.completeCheckout(started?.providerCheckoutId ?? '')
    for (const event of [
      polar.fake.event('checkout.updated', paid.checkout),
      polar.fake.event('subscription.created', paid.subscription),
      polar.fake.event('order.paid', paid.order),
    ]) {
      expect(await deliver(event), event.type).toBe(200)
    }

    const opened = await h.trpc<OpenedReceipt>('query', 'billing.receipt.open', owner.cookie, { orderId })
    expect(opened.error).toBeUndefined()
    expect(opened.data).toEqual({
      redirectUrl: `${polar.fake.url}/receipts/${paid.order.id}.pdf?expires=3600`,
      receipt: null,
    })

    polar.fake.requests.length = 0
    const refused = await h.trpc<OpenedReceipt>('query', 'billing.receipt.open', outsider.cookie, { orderId })
    expect(refused.status).toBe(404)
    expect(polar.fake.requests, 'Polar is not even asked for someone who may not see it').toEqual([])
  })
})
