// With STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET set, the app's own procedures and webhook route talk to Stripe
// (here a fake Stripe API in the test process): checkout, the webhook, seats and the customer portal.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleBillingWebhook } from '#/features/billing/server'
import { billingOrders, billingSubscriptions } from '#/server/db/schema'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type FakeStripe, signedDelivery, startFakeStripe } from './fake-stripe'

const webhookSecret = 'whsec_hatch_checkout_test'
let fake: FakeStripe

// The environment is read once, on first use: it must name Stripe before any request.
beforeAll(async () => {
  fake = await startFakeStripe()
  process.env.STRIPE_SECRET_KEY = 'sk_test_hatch_checkout'
  process.env.STRIPE_WEBHOOK_SECRET = webhookSecret
  process.env.STRIPE_API_URL = fake.url
  process.env.STRIPE_PAYMENT_METHODS = 'card,alipay,wechat_pay'
})
afterAll(async () => {
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL', 'STRIPE_PAYMENT_METHODS']) {
    delete process.env[name]
  }
  await fake.close()
})

describe.each(engines)('checkout through Stripe on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let owner: Person
  let orgId: string
  const db = () => database.connection.db
  const deliver = (type: string, object: unknown) => {
    const { body, headers } = signedDelivery(fake.event(type, object), webhookSecret)
    return handleBillingWebhook(db(), 'stripe', body, headers)
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    owner = await h.signUp('Stella Stripe')
    orgId = (await h.activeOrganizationOf(owner)) ?? ''
  })
  afterAll(async () => {
    await database?.dispose()
  })

  it('starts a Stripe Checkout for Team with seats, and the webhook makes it paid', async () => {
    fake.requests.length = 0
    const start = await h.trpc<{ orderId: string; url: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      planId: 'team',
      interval: 'monthly',
      currency: 'CNY',
      seats: 4,
      locale: 'zh',
    })
    expect(start.error).toBeUndefined()
    const created = fake.requests.find(
      (request) => request.method === 'POST' && request.path === '/v1/checkout/sessions',
    )
    expect(created?.body).toMatchObject({
      mode: 'subscription',
      payment_method_types: ['card', 'alipay', 'wechat_pay'],
      locale: 'zh',
      line_items: [
        { quantity: '4', price_data: { currency: 'cny', unit_amount: '34900', recurring: { interval: 'month' } } },
      ],
    })
    const [pending] = await db()
      .select()
      .from(billingOrders)
      .where(eq(billingOrders.id, start.data?.orderId ?? ''))
    expect(pending?.status).toBe('pending')
    const session = fake.checkoutSession(pending?.providerCheckoutId ?? '')
    expect(session, 'the fake knows the session').toBeDefined()
    expect(start.data?.url).toBe(session?.url)
    // The local provider's page and webhook are closed while Stripe is configured.
    expect((await h.trpc('query', 'billing.local.get', owner.cookie, { id: 'lcs_any' })).error?.appCode).toBe(
      'CHECKOUT_NOT_FOUND',
    )
    expect((await handleBillingWebhook(db(), 'local', '{}', new Headers())).status).toBe(404)

    const completed = fake.completeCheckout(session?.id ?? '', { paid: true })
    expect((await deliver('checkout.session.completed', completed)).status).toBe(200)
    const [order] = await db()
      .select()
      .from(billingOrders)
      .where(eq(billingOrders.id, start.data?.orderId ?? ''))
    expect(order).toMatchObject({ status: 'paid', provider: 'stripe', seats: 4, amount: 4 * 34900, currency: 'CNY' })
    const [subscription] = await db()
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.organizationId, orgId))
    expect(subscription).toMatchObject({ provider: 'stripe', planId: 'team', seats: 4, status: 'active' })
  })

  it('prices more seats as Stripe prorates them, charges that at once, and records the invoice as an order', async () => {
    fake.requests.length = 0
    const preview = await h.trpc<{ amountDue: number; charge: number; credit: number; prorationDate: Date }>(
      'query',
      'billing.previewSeats',
      owner.cookie,
      { seats: 6 },
    )
    expect(preview.error).toBeUndefined()
    // Moments into a month of four seats: two more cost nearly two seats' month.
    expect(preview.data?.amountDue).toBeGreaterThan(2 * 34900 - 100)
    expect(preview.data?.amountDue).toBeLessThanOrEqual(2 * 34900)
    const seats = await h.trpc<{ seats: number; amountDue: number }>('mutation', 'billing.changeSeats', owner.cookie, {
      seats: 6,
      prorationDate: preview.data?.prorationDate,
      expectedAmountDue: preview.data?.amountDue,
    })
    expect(seats.data).toMatchObject({ seats: 6, amountDue: preview.data?.amountDue })
    const [subscription] = await db()
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.organizationId, orgId))
    expect(subscription?.seats).toBe(6)
    const invoice = fake.storedInvoice(
      fake.subscription(subscription?.providerSubscriptionId ?? '')?.latest_invoice ?? '',
    )
    expect(invoice?.amount_paid, 'Stripe charged what the customer confirmed').toBe(preview.data?.amountDue)
    expect((await deliver('invoice.paid', invoice)).status).toBe(200)
    const [change] = await db()
      .select()
      .from(billingOrders)
      .where(eq(billingOrders.providerInvoiceId, invoice?.id ?? ''))
    expect(change).toMatchObject({ kind: 'change', status: 'paid', seats: 6, amount: preview.data?.amountDue })

    // Its receipt is Stripe's hosted invoice, asked for when opened (a stored link can have expired since).
    fake.requests.length = 0
    const receipt = await h.trpc<{ redirectUrl: string | null }>('query', 'billing.receipt.open', owner.cookie, {
      orderId: change?.id,
    })
    expect(receipt.data?.redirectUrl).toBe(`${fake.url}/i/${invoice?.id}`)
    expect(
      fake.requests.some((request) => request.method === 'GET' && request.path === `/v1/invoices/${invoice?.id}`),
    ).toBe(true)
  })

  it('keeps the plan as it was when the card is declined, and says so (no past-due subscription, no order)', async () => {
    const [before] = await db()
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.organizationId, orgId))
    const subscriptionId = before?.providerSubscriptionId ?? ''
    const customer = fake.subscription(subscriptionId)?.customer ?? ''
    const ordersBefore = await db().select().from(billingOrders).where(eq(billingOrders.organizationId, orgId))
    fake.declineCharges(customer)
    try {
      const preview = await h.trpc<{ amountDue: number; prorationDate: Date }>(
        'query',
        'billing.previewSeats',
        owner.cookie,
        { seats: 8 },
      )
      const declined = await h.trpc('mutation', 'billing.changeSeats', owner.cookie, {
        seats: 8,
        prorationDate: preview.data?.prorationDate,
        expectedAmountDue: preview.data?.amountDue,
      })
      expect(declined).toMatchObject({ status: 402, error: { appCode: 'PLAN_CHANGE_DECLINED' } })
      expect(fake.subscription(subscriptionId)).toMatchObject({ status: 'active' })
      const [after] = await db()
        .select()
        .from(billingSubscriptions)
        .where(eq(billingSubscriptions.organizationId, orgId))
      expect(after).toMatchObject({ seats: before?.seats, status: 'active' })
      const ordersAfter = await db().select().from(billingOrders).where(eq(billingOrders.organizationId, orgId))
      expect(ordersAfter).toHaveLength(ordersBefore.length)
    } finally {
      fake.declineCharges(customer, false)
    }
  })

  it('opens the customer portal', async () => {
    const portal = await h.trpc<{ url: string }>('mutation', 'billing.portal', owner.cookie, { locale: 'en' })
    expect(portal.error).toBeUndefined()
    const portalRequest = fake.requests.find((request) => request.path === '/v1/billing_portal/sessions')
    expect(portalRequest?.body).toMatchObject({
      return_url: expect.stringMatching(/\/en\/console\/organization\/billing$/),
    })
    expect(portal.data?.url).toMatch(/^https?:\/\//)
  })

  it('answers 400 to a delivery signed with another secret, and writes nothing', async () => {
    const [before] = await db().select().from(billingOrders).where(eq(billingOrders.organizationId, orgId))
    const { body, headers } = signedDelivery(fake.event('checkout.session.expired', { id: 'cs_x' }), 'whsec_wrong')
    expect((await handleBillingWebhook(db(), 'stripe', body, headers)).status).toBe(400)
    const [after] = await db().select().from(billingOrders).where(eq(billingOrders.organizationId, orgId))
    expect(after).toEqual(before)
  })
})
