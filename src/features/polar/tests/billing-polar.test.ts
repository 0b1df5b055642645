// With POLAR_ACCESS_TOKEN and POLAR_WEBHOOK_SECRET set, the app's own procedures and webhook route take payments
// through Polar (here a fake Polar API in the test process, called by the official SDK): checkout with seats, the
// webhook events late, twice and out of order, renewals, refunds, plan and seat changes, the customer portal, a
// declined charge, and repairs from Polar's side.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  handleBillingWebhook,
  paymentProviderFor,
  reconcileSubscriptions,
  replayEvent,
} from '#/features/billing/server'
import { billingEvents, billingOrders, billingSubscriptions } from '#/server/db/schema'
import { organizationPlan } from '#/server/plan-limits'
import { type OrganizationHarness, organizationHarness } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type FakePolarEvent, signedPolarDelivery } from './fake-polar'
import { polarProvider } from './polar-for-tests'

const polar = polarProvider('polar_oat_hatch_test')

describe.each(engines)('payments through Polar on %s', (engine) => {
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

  /** Polar delivers an event to the app's webhook route; returns the route's status and the delivery's id. */
  const deliver = async (event: FakePolarEvent, options: Parameters<typeof signedPolarDelivery>[2] = {}) => {
    const { body, headers, webhookId } = signedPolarDelivery(event, polar.webhookSecret, options)
    const response = await handleBillingWebhook(db(), 'polar', body, headers)
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, webhookId }
  }
  const orderOf = async (id: string) => (await db().select().from(billingOrders).where(eq(billingOrders.id, id)))[0]
  const ordersOf = (organizationId: string) =>
    db().select().from(billingOrders).where(eq(billingOrders.organizationId, organizationId))
  const subscriptionOf = async (organizationId: string) =>
    (await db().select().from(billingSubscriptions).where(eq(billingSubscriptions.organizationId, organizationId)))[0]

  /** A new owner starts a checkout from the Pricing page, as the browser does: `billing.startCheckout`. */
  const startCheckout = async (
    name: string,
    purchase: { planId: 'pro' | 'team'; interval: 'monthly' | 'yearly'; currency: 'USD' | 'CNY'; seats?: number },
  ) => {
    const owner = await h.signUp(name)
    const organizationId = (await h.activeOrganizationOf(owner)) ?? ''
    const start = await h.trpc<{ orderId: string; url: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      ...purchase,
      locale: 'en',
    })
    expect(start.error).toBeUndefined()
    const orderId = start.data?.orderId ?? ''
    const checkoutId = (await orderOf(orderId))?.providerCheckoutId ?? ''
    expect(polar.fake.checkout(checkoutId)?.url, 'the buyer is sent to Polar’s checkout').toBe(start.data?.url)
    return { owner, organizationId, orderId, checkoutId }
  }

  /** A whole purchase: the buyer pays at Polar, and Polar's events arrive in the order it usually sends them. */
  const buy = async (name: string, purchase: Parameters<typeof startCheckout>[1]) => {
    const started = await startCheckout(name, purchase)
    const paid = polar.fake.completeCheckout(started.checkoutId)
    for (const event of [
      polar.fake.event('checkout.updated', paid.checkout),
      polar.fake.event('subscription.created', paid.subscription),
      polar.fake.event('subscription.active', paid.subscription),
      polar.fake.event('order.created', paid.order),
      polar.fake.event('order.paid', paid.order),
    ]) {
      expect((await deliver(event)).status, event.type).toBe(200)
    }
    return { ...started, ...paid }
  }

  it('sells Team with seats through a Polar product made for its price, and the webhooks make the order paid', async () => {
    polar.fake.requests.length = 0
    const team = await buy('Paula Polar', { planId: 'team', interval: 'monthly', currency: 'CNY', seats: 4 })
    // Hatch made a seat-based product for Team's monthly CNY price (on the first engine; found again after).
    expect(polar.fake.products().find((product) => product.id === team.subscription.product_id)).toMatchObject({
      recurring_interval: 'month',
      prices: [
        { amount_type: 'seat_based', price_currency: 'cny', seat_tiers: { tiers: [{ price_per_seat: 34900 }] } },
      ],
      metadata: { hatch_plan: 'team', hatch_interval: 'monthly', hatch_price: 'team-monthly-cny-34900' },
    })
    const checkoutCall = polar.fake.requests.find((request) => request.path === '/v1/checkouts/')
    expect(checkoutCall?.body).toMatchObject({
      products: [team.subscription.product_id],
      // The buyer cannot change the seats on Polar's page: they were checked against the members here.
      seats: 4,
      min_seats: 4,
      max_seats: 4,
      currency: 'cny',
      external_customer_id: team.organizationId,
      customer_email: team.owner.email,
      metadata: { hatch_order_id: team.orderId, hatch_organization_id: team.organizationId, hatch_plan: 'team' },
    })
    expect(await orderOf(team.orderId)).toMatchObject({
      provider: 'polar',
      status: 'paid',
      amount: 4 * 34900,
      currency: 'CNY',
      providerCheckoutId: team.checkoutId,
      providerSubscriptionId: team.subscription.id,
      providerInvoiceId: team.order.id,
      periodStart: new Date(team.order.items[0]?.start_timestamp ?? ''),
      periodEnd: new Date(team.order.items[0]?.end_timestamp ?? ''),
    })
    expect(await subscriptionOf(team.organizationId)).toMatchObject({
      provider: 'polar',
      providerCustomerId: team.subscription.customer_id,
      planId: 'team',
      interval: 'monthly',
      seats: 4,
      amount: 4 * 34900,
      status: 'active',
    })
    expect(await organizationPlan(db(), team.organizationId)).toMatchObject({ plan: { id: 'team' }, seats: 4 })

    // The same price again is sold through the same product.
    const second = await buy('Pablo Polar', { planId: 'team', interval: 'monthly', currency: 'CNY', seats: 2 })
    expect(second.subscription.product_id).toBe(team.subscription.product_id)
    expect(
      polar.fake.products().filter((product) => product.metadata.hatch_price === 'team-monthly-cny-34900'),
    ).toHaveLength(1)
  })

  it('ends the same when the order arrives before the checkout and the subscription events', async () => {
    const started = await startCheckout('Olive Outoforder', { planId: 'pro', interval: 'yearly', currency: 'USD' })
    const paid = polar.fake.completeCheckout(started.checkoutId)
    for (const event of [
      polar.fake.event('order.paid', paid.order),
      polar.fake.event('subscription.active', paid.subscription),
      polar.fake.event('checkout.updated', paid.checkout),
    ]) {
      expect((await deliver(event)).status, event.type).toBe(200)
    }
    expect(await orderOf(started.orderId)).toMatchObject({
      status: 'paid',
      providerInvoiceId: paid.order.id,
      amount: paid.order.total_amount,
    })
    expect(await subscriptionOf(started.organizationId)).toMatchObject({ planId: 'pro', interval: 'yearly' })
    expect(await ordersOf(started.organizationId)).toHaveLength(1)
  })

  it('applies a repeated delivery once, and stores nothing for a forged, foreign or stale one', async () => {
    const started = await startCheckout('Dora Duplicate', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    const paid = polar.fake.completeCheckout(started.checkoutId)
    const orderPaid = polar.fake.event('order.paid', paid.order)
    const first = await deliver(orderPaid, { webhookId: 'msg_dora_order_paid' })
    expect(first.body).toEqual({ received: true, duplicate: false })
    const afterFirst = await orderOf(started.orderId)
    expect(afterFirst?.status).toBe('paid')
    // Polar retries with the same webhook-id; an older endpoint's secret signs with its UTF-8 bytes.
    const again = await deliver(orderPaid, { webhookId: 'msg_dora_order_paid', scheme: 'legacy' })
    expect(again.body).toEqual({ received: true, duplicate: true })
    expect(await orderOf(started.orderId)).toEqual(afterFirst)

    const eventsBefore = await db().select().from(billingEvents)
    const genuine = signedPolarDelivery(
      polar.fake.event('order.refunded', { ...paid.order, refunded_amount: 1 }),
      polar.webhookSecret,
    )
    const forged = genuine.body.replace('"refunded_amount":1', `"refunded_amount":${paid.order.total_amount}`)
    expect(forged).not.toBe(genuine.body)
    expect((await handleBillingWebhook(db(), 'polar', forged, genuine.headers)).status).toBe(400)
    const foreign = signedPolarDelivery(
      polar.fake.event('order.refunded', paid.order),
      `whsec_${randomBytes(32).toString('base64')}`,
    )
    expect((await handleBillingWebhook(db(), 'polar', foreign.body, foreign.headers)).status).toBe(400)
    const stale = signedPolarDelivery(polar.fake.event('order.refunded', paid.order), polar.webhookSecret, {
      timestamp: new Date(Date.now() - 10 * 60_000),
    })
    expect((await handleBillingWebhook(db(), 'polar', stale.body, stale.headers)).status, 'a replay').toBe(400)
    expect((await handleBillingWebhook(db(), 'polar', genuine.body, new Headers())).status).toBe(400)
    expect(await db().select().from(billingEvents)).toEqual(eventsBefore)
    expect(await orderOf(started.orderId)).toEqual(afterFirst)
  })

  it('marks an order expired when its Polar checkout expired unpaid', async () => {
    const started = await startCheckout('Ezra Expired', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    expect(
      (await deliver(polar.fake.event('checkout.expired', polar.fake.expireCheckout(started.checkoutId)))).status,
    ).toBe(200)
    expect(await orderOf(started.orderId)).toMatchObject({ status: 'expired' })
  })

  it('records a renewal as a new paid order once, and follows refunds by Polar’s running total', async () => {
    const bought = await buy('Rene Renews', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    const renewal = polar.fake.renew(bought.subscription.id)
    const renewed = polar.fake.event('order.paid', renewal.order)
    expect((await deliver(renewed)).status).toBe(200)
    expect((await deliver(renewed)).status).toBe(200)
    const renewals = (await ordersOf(bought.organizationId)).filter((order) => order.kind === 'renewal')
    expect(renewals).toEqual([
      expect.objectContaining({
        status: 'paid',
        providerInvoiceId: renewal.order.id,
        amount: renewal.order.total_amount,
      }),
    ])
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({
      currentPeriodEnd: new Date(renewal.subscription.current_period_end),
    })

    // Two partial refunds, their events delivered newest first: the order ends with the larger total.
    const firstRefund = polar.fake.refund(bought.order.id, 500)
    const secondRefund = polar.fake.refund(bought.order.id, 700)
    expect((await deliver(polar.fake.event('order.refunded', secondRefund))).status).toBe(200)
    expect((await deliver(polar.fake.event('order.refunded', firstRefund))).status).toBe(200)
    expect(await orderOf(bought.orderId)).toMatchObject({ amountRefunded: 1200, status: 'partially_refunded' })
    const whole = polar.fake.refund(bought.order.id, bought.order.total_amount)
    expect((await deliver(polar.fake.event('order.refunded', whole))).status).toBe(200)
    expect(await orderOf(bought.orderId)).toMatchObject({
      amountRefunded: bought.order.total_amount,
      status: 'refunded',
    })
  })

  it('adds seats as previewed, charging the prorated amount at Polar, and records that order as a change', async () => {
    const team = await buy('Sam Seats', { planId: 'team', interval: 'yearly', currency: 'USD', seats: 3 })
    const preview = await h.trpc<{ amountDue: number; prorationDate: Date }>(
      'query',
      'billing.previewSeats',
      team.owner.cookie,
      { seats: 5 },
    )
    expect(preview.error).toBeUndefined()
    const changed = await h.trpc<{ seats: number }>('mutation', 'billing.changeSeats', team.owner.cookie, {
      seats: 5,
      prorationDate: preview.data?.prorationDate,
      expectedAmountDue: preview.data?.amountDue,
    })
    expect(changed.data).toMatchObject({ seats: 5 })
    expect(polar.fake.subscription(team.subscription.id)).toMatchObject({ seats: 5 })
    const changeOrder = polar.fake
      .ordersOf(team.subscription.id)
      .find((order) => order.billing_reason === 'subscription_update')
    expect(changeOrder?.total_amount, 'Polar charged what the owner confirmed').toBeCloseTo(
      preview.data?.amountDue ?? 0,
      -1,
    )
    expect((await deliver(polar.fake.event('order.paid', changeOrder))).status).toBe(200)
    expect((await ordersOf(team.organizationId)).find((order) => order.kind === 'change')).toMatchObject({
      status: 'paid',
      seats: 5,
      amount: changeOrder?.total_amount,
    })
    expect(await organizationPlan(db(), team.organizationId)).toMatchObject({ seats: 5 })
  })

  it('keeps the plan as it was when Polar declines the change’s charge, and says so', async () => {
    const team = await buy('Dana Declined', { planId: 'team', interval: 'monthly', currency: 'USD', seats: 2 })
    const ordersBefore = await ordersOf(team.organizationId)
    polar.fake.declineCharges(team.subscription.customer_id)
    const preview = await h.trpc<{ amountDue: number; prorationDate: Date }>(
      'query',
      'billing.previewSeats',
      team.owner.cookie,
      { seats: 6 },
    )
    const declined = await h.trpc('mutation', 'billing.changeSeats', team.owner.cookie, {
      seats: 6,
      prorationDate: preview.data?.prorationDate,
      expectedAmountDue: preview.data?.amountDue,
    })
    expect(declined).toMatchObject({ status: 402, error: { appCode: 'PLAN_CHANGE_DECLINED' } })
    expect(polar.fake.subscription(team.subscription.id)).toMatchObject({ seats: 2, status: 'active' })
    expect(await subscriptionOf(team.organizationId)).toMatchObject({ seats: 2, status: 'active' })
    expect(await ordersOf(team.organizationId)).toHaveLength(ordersBefore.length)
  })

  it('cancels at the period’s end at Polar, opens Polar’s customer portal, and repairs what changed there', async () => {
    const bought = await buy('Cleo Cancels', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    const cancel = await h.trpc('mutation', 'billing.setCancelAtPeriodEnd', bought.owner.cookie, {
      cancelAtPeriodEnd: true,
    })
    expect(cancel.error).toBeUndefined()
    expect(polar.fake.subscription(bought.subscription.id)).toMatchObject({ cancel_at_period_end: true })
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' })

    const portal = await h.trpc<{ url: string }>('mutation', 'billing.portal', bought.owner.cookie, { locale: 'zh' })
    expect(portal.data?.url).toMatch(new RegExp(`^${polar.fake.url}/portal\\?customer_session_token=`))
    expect(polar.fake.requests.at(-1)?.body).toMatchObject({
      customer_id: bought.subscription.customer_id,
      return_url: expect.stringMatching(/\/zh\/console\/organization\/billing$/),
    })

    // The customer resumes in Polar's portal and the webhook is lost: reconcile finds it and puts it right.
    const provider = await paymentProviderFor(db(), 'polar')
    polar.fake.setSubscription(bought.subscription.id, {
      cancel_at_period_end: false,
      canceled_at: null,
      ends_at: null,
    })
    expect(await reconcileSubscriptions(db(), provider)).toContain(bought.subscription.id)
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ cancelAtPeriodEnd: false })
    expect(await reconcileSubscriptions(db(), provider), 'nothing drifts twice').not.toContain(bought.subscription.id)

    // Someone breaks the row by hand; replaying a stored event puts back what Polar says, and adds no order.
    await db()
      .update(billingSubscriptions)
      .set({ status: 'canceled' })
      .where(eq(billingSubscriptions.providerSubscriptionId, bought.subscription.id))
    const events = await db().select().from(billingEvents)
    const about = (type: string, field: 'id' | 'subscription_id') =>
      events.find(
        (event) =>
          event.type === type &&
          (event.payload as { data: Record<string, unknown> }).data[field] === bought.subscription.id,
      )?.id ?? ''
    const ordersBefore = (await ordersOf(bought.organizationId)).length
    expect(await replayEvent(db(), provider, about('subscription.active', 'id'))).toBe(true)
    expect(await replayEvent(db(), provider, about('order.paid', 'subscription_id'))).toBe(true)
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ status: 'active' })
    expect(await ordersOf(bought.organizationId)).toHaveLength(ordersBefore)
  })

  it('closes the local provider’s webhook while Polar takes payments', async () => {
    expect((await handleBillingWebhook(db(), 'local', '{}', new Headers())).status).toBe(404)
    expect((await handleBillingWebhook(db(), 'stripe', '{}', new Headers())).status).toBe(404)
  })
})
