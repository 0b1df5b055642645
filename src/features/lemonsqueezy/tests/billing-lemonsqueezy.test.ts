// With the LEMONSQUEEZY_* variables set, the app's own procedures and webhook route take payments through Lemon
// Squeezy (here a fake Lemon Squeezy API in the test process, called by the official SDK): checkout with seats at
// Hatch's price, webhook events late, twice and out of order, a forged or foreign delivery, renewals, refunds, a seat
// change, cancellation, the customer portal, and repairs from Lemon Squeezy's side.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleBillingWebhook, paymentProviderFor, reconcileSubscriptions } from '#/features/billing/server'
import { billingEvents, billingOrders, billingSubscriptions } from '#/server/db/schema'
import { organizationPlan } from '#/server/plan-limits'
import { type OrganizationHarness, organizationHarness } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import {
  type FakeLemonSqueezy,
  type FakeResource,
  routeSdkCallsTo,
  signedLemonDelivery,
  startFakeLemonSqueezy,
} from './fake-lemonsqueezy'

const apiKey = 'ls_test_hatch_api_key'
const webhookSecret = 'hatch-lemon-signing-secret'
// The store's variants, priced in its dashboard as Hatch's plans are (USD).
const variants = {
  '101': { interval: 'month', price: 1900 },
  '102': { interval: 'year', price: 19000 },
  '201': { interval: 'month', price: 4900 },
  '202': { interval: 'year', price: 49000 },
} as const
let fake: FakeLemonSqueezy
let restoreFetch: () => void

// The environment is read once, on first use: it must name Lemon Squeezy before any request.
beforeAll(async () => {
  fake = await startFakeLemonSqueezy({ apiKey, storeId: '7', currency: 'USD', variants })
  restoreFetch = routeSdkCallsTo(fake.url)
  Object.assign(process.env, {
    LEMONSQUEEZY_API_KEY: apiKey,
    LEMONSQUEEZY_STORE_ID: '7',
    LEMONSQUEEZY_WEBHOOK_SECRET: webhookSecret,
    LEMONSQUEEZY_VARIANTS: 'pro-monthly:101,pro-yearly:102,team-monthly:201,team-yearly:202',
  })
})
afterAll(async () => {
  for (const name of ['API_KEY', 'STORE_ID', 'WEBHOOK_SECRET', 'VARIANTS']) delete process.env[`LEMONSQUEEZY_${name}`]
  restoreFetch()
  await fake.close()
})

describe.each(engines)('payments through Lemon Squeezy on %s', (engine) => {
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

  const deliver = async (event: unknown, secret = webhookSecret) => {
    const { body, headers } = signedLemonDelivery(event, secret)
    const response = await handleBillingWebhook(db(), 'lemonsqueezy', body, headers)
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const orderOf = async (id: string) => (await db().select().from(billingOrders).where(eq(billingOrders.id, id)))[0]
  const ordersOf = (organizationId: string) =>
    db().select().from(billingOrders).where(eq(billingOrders.organizationId, organizationId))
  const subscriptionOf = async (organizationId: string) =>
    (await db().select().from(billingSubscriptions).where(eq(billingSubscriptions.organizationId, organizationId)))[0]

  const startCheckout = async (
    name: string,
    purchase: { planId: 'pro' | 'team'; interval: 'monthly' | 'yearly'; seats?: number },
  ) => {
    const owner = await h.signUp(name)
    const organizationId = (await h.activeOrganizationOf(owner)) ?? ''
    const start = await h.trpc<{ orderId: string; url: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      ...purchase,
      currency: 'USD',
      locale: 'en',
    })
    expect(start.error).toBeUndefined()
    const orderId = start.data?.orderId ?? ''
    const checkoutId = (await orderOf(orderId))?.providerCheckoutId ?? ''
    expect(fake.checkout(checkoutId)?.attributes.url, 'the buyer is sent to the hosted checkout').toBe(start.data?.url)
    const custom = { hatch_order_id: orderId, hatch_organization_id: organizationId }
    return { owner, organizationId, orderId, checkoutId, custom }
  }

  /** The buyer pays; Lemon Squeezy's events for it, in the order it usually sends them. */
  const pay = (started: Awaited<ReturnType<typeof startCheckout>>) => {
    const paid = fake.completeCheckout(started.checkoutId)
    return {
      ...started,
      ...paid,
      events: [
        fake.event('order_created', paid.order, started.custom),
        fake.event('subscription_created', paid.subscription, started.custom),
        fake.event('subscription_payment_success', paid.invoice, started.custom),
      ],
    }
  }
  const buy = async (name: string, purchase: Parameters<typeof startCheckout>[1]) => {
    const bought = pay(await startCheckout(name, purchase))
    for (const event of bought.events) expect((await deliver(event)).status).toBe(200)
    return bought
  }

  it('sells Team’s seats at Hatch’s price through the plan’s variant, and the webhooks make the order paid', async () => {
    fake.requests.length = 0
    const team = await buy('Lena Lemon', { planId: 'team', interval: 'monthly', seats: 3 })
    const checkoutCall = fake.requests.find((request) => request.path === '/v1/checkouts')
    expect(checkoutCall?.body?.data).toMatchObject({
      type: 'checkouts',
      attributes: {
        custom_price: 4900,
        checkout_data: {
          email: team.owner.email,
          custom: team.custom,
          variant_quantities: [{ variant_id: 201, quantity: 3 }],
        },
        product_options: {
          redirect_url: expect.stringContaining(`/en/my-orders?order=${team.orderId}`),
          enabled_variants: [201],
        },
      },
      relationships: { store: { data: { id: '7' } }, variant: { data: { id: '201' } } },
    })
    expect(await orderOf(team.orderId)).toMatchObject({
      provider: 'lemonsqueezy',
      status: 'paid',
      amount: 3 * 4900,
      providerSubscriptionId: team.subscription.id,
      providerInvoiceId: team.invoice.id,
      receiptUrl: `${fake.url}/invoices/${team.invoice.id}`,
    })
    expect(await subscriptionOf(team.organizationId)).toMatchObject({
      provider: 'lemonsqueezy',
      providerCustomerId: String(team.subscription.attributes.customer_id),
      planId: 'team',
      interval: 'monthly',
      seats: 3,
      amount: 3 * 4900,
      status: 'active',
      currentPeriodEnd: new Date(team.subscription.attributes.renews_at),
    })
    expect(await organizationPlan(db(), team.organizationId)).toMatchObject({ plan: { id: 'team' }, seats: 3 })
  })

  it('ends the same when the first invoice arrives before the subscription and the order', async () => {
    const bought = pay(await startCheckout('Otto Outoforder', { planId: 'pro', interval: 'yearly' }))
    for (const event of [...bought.events].reverse()) expect((await deliver(event)).status).toBe(200)
    expect(await orderOf(bought.orderId)).toMatchObject({
      status: 'paid',
      amount: 19000,
      providerInvoiceId: bought.invoice.id,
    })
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ planId: 'pro', interval: 'yearly' })
    expect(await ordersOf(bought.organizationId)).toHaveLength(1)
  })

  it('applies a repeated delivery once, and stores nothing for a forged or foreign one', async () => {
    const bought = pay(await startCheckout('Dina Duplicate', { planId: 'pro', interval: 'monthly' }))
    const [orderCreated] = bought.events
    expect((await deliver(orderCreated)).body).toEqual({ received: true, duplicate: false })
    const afterFirst = await orderOf(bought.orderId)
    expect(afterFirst?.status).toBe('paid')
    expect((await deliver(orderCreated)).body).toEqual({ received: true, duplicate: true })
    expect(await orderOf(bought.orderId)).toEqual(afterFirst)

    const eventsBefore = await db().select().from(billingEvents)
    const refund = fake.event('order_refunded', { ...bought.order, attributes: { refunded_amount: 1 } }, bought.custom)
    const genuine = signedLemonDelivery(refund, webhookSecret)
    const forged = genuine.body.replace('"refunded_amount":1', '"refunded_amount":1900')
    expect((await handleBillingWebhook(db(), 'lemonsqueezy', forged, genuine.headers)).status).toBe(400)
    expect((await deliver(refund, 'someone-else-secret')).status).toBe(400)
    expect((await handleBillingWebhook(db(), 'lemonsqueezy', genuine.body, new Headers())).status).toBe(400)
    expect(await db().select().from(billingEvents)).toEqual(eventsBefore)
    expect(await orderOf(bought.orderId)).toEqual(afterFirst)
  })

  it('gives no organization a subscription whose custom data names it without an order Hatch made', async () => {
    const victim = await h.signUp('Vera Victim')
    const victimOrganization = (await h.activeOrganizationOf(victim)) ?? ''
    const started = await startCheckout('Mallory Buylink', { planId: 'team', interval: 'yearly', seats: 2 })
    const paid = fake.completeCheckout(started.checkoutId)
    // As a store's public buy link lets anyone set: custom data that names another organization and no real order.
    const forged = { hatch_order_id: 'not-an-order-of-hatch', hatch_organization_id: victimOrganization }
    expect((await deliver(fake.event('subscription_created', paid.subscription, forged))).status).toBe(200)
    expect((await deliver(fake.event('subscription_payment_success', paid.invoice, forged))).status).toBe(200)
    expect(await subscriptionOf(victimOrganization)).toBeUndefined()
    expect(await organizationPlan(db(), victimOrganization)).toMatchObject({ plan: { id: 'free' } })
  })

  it('refuses a checkout in a currency the store does not sell in, in the buyer’s words, leaving no order', async () => {
    const owner = await h.signUp('Cai Currency')
    const organizationId = (await h.activeOrganizationOf(owner)) ?? ''
    // The checkout page offers only the store's currency; a request for the other is refused all the same.
    const overview = await h.trpc<{ checkoutCurrencies: string[] }>('query', 'billing.overview', owner.cookie)
    expect(overview.data?.checkoutCurrencies).toEqual(['USD'])
    const refused = await h.trpc('mutation', 'billing.startCheckout', owner.cookie, {
      planId: 'pro',
      interval: 'monthly',
      currency: 'CNY',
      locale: 'zh',
    })
    expect(refused.error).toMatchObject({ appCode: 'PAYMENT_CURRENCY_UNSUPPORTED' })
    expect(await ordersOf(organizationId)).toEqual([])
  })

  it('records a renewal once and follows refunds by their running total', async () => {
    const bought = await buy('Rita Renews', { planId: 'pro', interval: 'monthly' })
    const renewal = fake.renew(bought.subscription.id)
    const renewed = fake.event('subscription_payment_success', renewal, bought.custom)
    expect((await deliver(renewed)).status).toBe(200)
    expect((await deliver(renewed)).body).toMatchObject({ duplicate: true })
    const renewals = (await ordersOf(bought.organizationId)).filter((order) => order.kind === 'renewal')
    expect(renewals).toEqual([expect.objectContaining({ status: 'paid', providerInvoiceId: renewal.id, amount: 1900 })])

    const first = fake.refund(bought.invoice.id, 400)
    const second = fake.refund(bought.invoice.id, 600)
    expect((await deliver(fake.event('subscription_payment_refunded', second, bought.custom))).status).toBe(200)
    expect((await deliver(fake.event('subscription_payment_refunded', first, bought.custom))).status).toBe(200)
    expect(await orderOf(bought.orderId)).toMatchObject({ amountRefunded: 1000, status: 'partially_refunded' })
  })

  it('adds seats as previewed, charged at once, and records that invoice as a change', async () => {
    const team = await buy('Seth Seats', { planId: 'team', interval: 'yearly', seats: 2 })
    const preview = await h.trpc<{ amountDue: number; prorationDate: Date }>(
      'query',
      'billing.previewSeats',
      team.owner.cookie,
      { seats: 4 },
    )
    expect(preview.error).toBeUndefined()
    const changed = await h.trpc('mutation', 'billing.changeSeats', team.owner.cookie, {
      seats: 4,
      prorationDate: preview.data?.prorationDate,
      expectedAmountDue: preview.data?.amountDue,
    })
    expect(changed.error).toBeUndefined()
    expect(fake.subscription(team.subscription.id)?.attributes.first_subscription_item.quantity).toBe(4)
    const invoice = fake
      .invoicesOf(team.subscription.id)
      .find((candidate) => candidate.attributes.billing_reason === 'updated')
    // Both prorate the year's remaining time; the charge is made a moment after the preview's instant.
    expect(Math.abs(Number(invoice?.attributes.total) - (preview.data?.amountDue ?? 0))).toBeLessThanOrEqual(2)
    expect(
      (await deliver(fake.event('subscription_payment_success', invoice as FakeResource, team.custom))).status,
    ).toBe(200)
    expect((await ordersOf(team.organizationId)).find((order) => order.kind === 'change')).toMatchObject({
      status: 'paid',
      seats: 4,
      amount: invoice?.attributes.total,
    })
    expect(await organizationPlan(db(), team.organizationId)).toMatchObject({ seats: 4 })
  })

  it('cancels at the period’s end, opens the customer portal, and repairs what changed at Lemon Squeezy', async () => {
    const bought = await buy('Cora Cancels', { planId: 'pro', interval: 'monthly' })
    const cancel = await h.trpc('mutation', 'billing.setCancelAtPeriodEnd', bought.owner.cookie, {
      cancelAtPeriodEnd: true,
    })
    expect(cancel.error).toBeUndefined()
    expect(fake.subscription(bought.subscription.id)?.attributes).toMatchObject({
      cancelled: true,
      status: 'cancelled',
    })
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' })

    const portal = await h.trpc<{ url: string }>('mutation', 'billing.portal', bought.owner.cookie, { locale: 'en' })
    expect(portal.data?.url).toBe(
      `${fake.url}/billing?expires=1&signature=fake-${bought.subscription.attributes.customer_id}`,
    )

    // The period ends and the webhook is lost: reconcile reads the subscription and puts the ledger right.
    fake.setSubscription(bought.subscription.id, { status: 'expired' })
    const provider = await paymentProviderFor(db(), 'lemonsqueezy')
    expect(await reconcileSubscriptions(db(), provider)).toContain(bought.subscription.id)
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ status: 'canceled' })
    expect(await organizationPlan(db(), bought.organizationId)).toMatchObject({ plan: { id: 'free' } })
  })
})
