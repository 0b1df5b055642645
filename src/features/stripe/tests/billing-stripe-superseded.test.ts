// Checkouts a subscription replaced are expired at Stripe, so nobody can pay one and start a second subscription;
// the hourly task leaves Stripe's own expiry alone (Stripe ends its sessions on time and refuses to expire them twice).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeOverdueProviderCheckouts, endSupersededCheckouts, handleBillingWebhook } from '#/features/billing/server'
import { billingOrders } from '#/server/db/schema'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type FakeStripe, signedDelivery, startFakeStripe } from './fake-stripe'

const webhookSecret = 'whsec_hatch_superseded_test'
let fake: FakeStripe

beforeAll(async () => {
  fake = await startFakeStripe()
  process.env.STRIPE_SECRET_KEY = 'sk_test_hatch_superseded'
  process.env.STRIPE_WEBHOOK_SECRET = webhookSecret
  process.env.STRIPE_API_URL = fake.url
})
afterAll(async () => {
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL']) delete process.env[name]
  await fake.close()
})

describe.each(engines)('Stripe checkouts a subscription replaced, on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  const db = () => database.connection.db
  const deliver = (type: string, object: unknown) => {
    const { body, headers } = signedDelivery(fake.event(type, object), webhookSecret)
    return handleBillingWebhook(db(), 'stripe', body, headers)
  }
  const startPro = async (person: Person) => {
    const start = await h.trpc<{ orderId: string }>('mutation', 'billing.startCheckout', person.cookie, {
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
    })
    expect(start.error, 'the checkout starts').toBeUndefined()
    const [order] = await db()
      .select()
      .from(billingOrders)
      .where(eq(billingOrders.id, start.data?.orderId ?? ''))
    return { orderId: order?.id ?? '', sessionId: order?.providerCheckoutId ?? '' }
  }
  const statusOf = async (orderId: string) =>
    (await db().select({ status: billingOrders.status }).from(billingOrders).where(eq(billingOrders.id, orderId)))[0]
      ?.status
  const expireCalls = (sessionId?: string) =>
    fake.requests.filter(
      (request) =>
        request.method === 'POST' &&
        request.path.endsWith('/expire') &&
        (sessionId === undefined || request.path.includes(sessionId)),
    ).length

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
  })
  afterAll(async () => {
    await database?.dispose()
  })

  it('expires the open sessions at Stripe once another checkout is paid, and counts an expired one as closed', async () => {
    const stella = await h.signUp('Stella Twice')
    const abandoned = await startPro(stella)
    const lapsed = await startPro(stella)
    const paying = await startPro(stella)
    // One ran out at Stripe before its event reached Hatch: Stripe refuses to expire it again.
    fake.expireCheckout(lapsed.sessionId)

    const completed = fake.completeCheckout(paying.sessionId, { paid: true })
    expect((await deliver('checkout.session.completed', completed)).status).toBe(200)

    expect(fake.checkoutSession(abandoned.sessionId)?.status, 'nobody can pay it at Stripe any more').toBe('expired')
    expect(fake.checkoutSession(abandoned.sessionId)?.url).toBeNull()
    expect(await statusOf(abandoned.orderId)).toBe('canceled')
    expect(await statusOf(lapsed.orderId)).toBe('canceled')
    expect(await statusOf(paying.orderId)).toBe('paid')

    // Stripe's own "expired" event for the session Hatch closed changes nothing: it stays canceled.
    const expired = fake.checkoutSession(abandoned.sessionId)
    expect((await deliver('checkout.session.expired', expired)).status).toBe(200)
    expect(await statusOf(abandoned.orderId)).toBe('canceled')
    fake.requests.length = 0
    expect(await endSupersededCheckouts(db()), 'nothing is left to end').toBe(0)
    expect(expireCalls()).toBe(0)
  })

  it('leaves a session paid at Stripe whose event has not arrived yet, for that event to settle', async () => {
    const paula = await h.signUp('Paula Both')
    const first = await startPro(paula)
    const second = await startPro(paula)
    fake.completeCheckout(second.sessionId, { paid: true })
    const completed = fake.completeCheckout(first.sessionId, { paid: true })
    expect((await deliver('checkout.session.completed', completed)).status).toBe(200)
    expect(await statusOf(second.orderId), 'it was paid: not called canceled').toBe('pending')
  })

  it('does not ask Stripe to expire overdue sessions every hour (Stripe ends them itself)', async () => {
    const otto = await h.signUp('Otto Overdue')
    const overdue = await startPro(otto)
    await db()
      .update(billingOrders)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(billingOrders.id, overdue.orderId))
    fake.expireCheckout(overdue.sessionId)
    fake.requests.length = 0
    expect(await closeOverdueProviderCheckouts(db())).toBe(0)
    expect(expireCalls(overdue.sessionId), 'no request Stripe would refuse with an error').toBe(0)
  })
})
