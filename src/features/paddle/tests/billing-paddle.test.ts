// With PADDLE_API_KEY, PADDLE_WEBHOOK_SECRET and PADDLE_CLIENT_TOKEN set, the app's own procedures and webhook route
// take payments through Paddle Billing (here a fake Paddle API in the test process, called by the official SDK):
// checkout with seats on the app's own Paddle.js page, the webhook events late, twice and out of order, renewals,
// refunds made of separate adjustments, plan and seat changes, a declined charge, the customer portal, and repairs
// from Paddle's side.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  closeOverdueProviderCheckouts,
  handleBillingWebhook,
  paymentProviderFor,
  reconcileSubscriptions,
  replayEvent,
} from '#/features/billing/server'
import { billingEvents, billingOrders, billingSubscriptions } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { organizationPlan } from '#/server/plan-limits'
import { type OrganizationHarness, organizationHarness } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type FakePaddleEvent, signedPaddleDelivery } from './fake-paddle'
import { paddleProvider } from './paddle-for-tests'

const paddle = paddleProvider('pdl_sdbx_apikey_hatch_test')

describe.each(engines)('payments through Paddle on %s', (engine) => {
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

  /** Paddle delivers an event to the app's webhook route. */
  const deliver = async (event: FakePaddleEvent, options: Parameters<typeof signedPaddleDelivery>[2] = {}) => {
    const { body, headers } = signedPaddleDelivery(event, paddle.webhookSecret, options)
    const response = await handleBillingWebhook(db(), 'paddle', body, headers)
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
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
      locale: 'zh',
    })
    expect(start.error).toBeUndefined()
    const orderId = start.data?.orderId ?? ''
    const transactionId = (await orderOf(orderId))?.providerCheckoutId ?? ''
    // The buyer goes to the app's own checkout page, where Paddle.js opens the transaction.
    expect(start.data?.url).toBe(`${getEnv().APP_URL}/zh/paddle-checkout?_ptxn=${transactionId}`)
    return { owner, organizationId, orderId, transactionId }
  }

  /** A whole purchase: the buyer pays in Paddle.js, and Paddle's events arrive in the order it usually sends them. */
  const buy = async (name: string, purchase: Parameters<typeof startCheckout>[1]) => {
    const started = await startCheckout(name, purchase)
    const paid = paddle.fake.completeCheckout(started.transactionId)
    for (const event of [
      paddle.fake.event('transaction.paid', paid.transaction),
      paddle.fake.event('subscription.created', paid.subscription),
      paddle.fake.event('subscription.activated', paid.subscription),
      paddle.fake.event('transaction.completed', paid.transaction),
    ]) {
      expect((await deliver(event)).status, event.event_type).toBe(200)
    }
    return { ...started, ...paid }
  }

  it('sells Team with seats at a price made for the sale, shows the buyer its page, and the webhooks make it paid', async () => {
    paddle.fake.requests.length = 0
    const started = await startCheckout('Paddy Paddle', {
      planId: 'team',
      interval: 'monthly',
      currency: 'CNY',
      seats: 4,
    })
    const created = paddle.fake.requests.find((request) => request.path === '/transactions')
    expect(created?.body).toMatchObject({
      currency_code: 'CNY',
      collection_mode: 'automatic',
      items: [
        {
          quantity: 4,
          price: {
            unit_price: { amount: '34900', currency_code: 'CNY' },
            billing_cycle: { interval: 'month', frequency: 1 },
            // The buyer cannot change the seats in Paddle.js: they were checked against the members here.
            quantity: { minimum: 4, maximum: 4 },
            custom_data: {
              hatch_order_id: started.orderId,
              hatch_organization_id: started.organizationId,
              hatch_plan: 'team',
              hatch_interval: 'monthly',
            },
            product: { tax_category: 'saas' },
          },
        },
      ],
    })

    // The checkout page: only its buyer sees it, with the client token to open Paddle.js.
    const page = await h.trpc<Record<string, unknown>>('query', 'paddle.get', started.owner.cookie, {
      transactionId: started.transactionId,
    })
    expect(page.data).toMatchObject({
      orderId: started.orderId,
      planId: 'team',
      seats: 4,
      amount: 4 * 34900,
      currency: 'CNY',
      status: 'open',
      paddle: { clientToken: paddle.clientToken, environment: 'sandbox' },
    })
    const stranger = await h.signUp('Sneaky Stranger')
    const foreign = await h.trpc('query', 'paddle.get', stranger.cookie, {
      transactionId: started.transactionId,
    })
    expect(foreign).toMatchObject({ status: 404, error: { appCode: 'CHECKOUT_NOT_FOUND' } })
    expect(foreign.data).toBeUndefined()
    const malformed = await h.trpc('query', 'paddle.get', started.owner.cookie, { transactionId: 'sub_1' })
    expect(malformed.status).toBe(400)
    // A transaction that is no checkout of Hatch's (a renewal to pay, a card to update, linked from Paddle's emails):
    // the page opens it in Paddle.js and shows nothing of any order.
    const dunning = await h.trpc('query', 'paddle.get', stranger.cookie, { transactionId: 'txn_01renewal' })
    expect(dunning.data).toEqual({
      kind: 'payment',
      paddle: { clientToken: paddle.clientToken, environment: 'sandbox' },
    })

    const paid = paddle.fake.completeCheckout(started.transactionId)
    for (const event of [
      paddle.fake.event('transaction.paid', paid.transaction),
      paddle.fake.event('subscription.created', paid.subscription),
      paddle.fake.event('transaction.completed', paid.transaction),
    ]) {
      expect((await deliver(event)).status, event.event_type).toBe(200)
    }
    expect(await orderOf(started.orderId)).toMatchObject({
      provider: 'paddle',
      status: 'paid',
      amount: 4 * 34900,
      currency: 'CNY',
      providerCheckoutId: started.transactionId,
      providerSubscriptionId: paid.subscription.id,
      providerInvoiceId: started.transactionId,
      periodStart: new Date(paid.transaction.billing_period?.starts_at ?? ''),
      periodEnd: new Date(paid.transaction.billing_period?.ends_at ?? ''),
    })
    expect(await subscriptionOf(started.organizationId)).toMatchObject({
      provider: 'paddle',
      providerCustomerId: paid.subscription.customer_id,
      planId: 'team',
      interval: 'monthly',
      seats: 4,
      amount: 4 * 34900,
      status: 'active',
    })
    expect(await organizationPlan(db(), started.organizationId)).toMatchObject({ plan: { id: 'team' }, seats: 4 })
    // Once paid, the page no longer hands out the token: it says the checkout is paid.
    const after = await h.trpc('query', 'paddle.get', started.owner.cookie, {
      transactionId: started.transactionId,
    })
    expect(after.data).toMatchObject({ status: 'complete', paddle: null })
  })

  it('ends the same when the completed transaction arrives before the subscription events', async () => {
    const started = await startCheckout('Olive Outoforder', { planId: 'pro', interval: 'yearly', currency: 'USD' })
    const paid = paddle.fake.completeCheckout(started.transactionId)
    for (const event of [
      paddle.fake.event('transaction.completed', paid.transaction),
      paddle.fake.event('subscription.activated', paid.subscription),
      paddle.fake.event('transaction.paid', paid.transaction),
    ]) {
      expect((await deliver(event)).status, event.event_type).toBe(200)
    }
    expect(await orderOf(started.orderId)).toMatchObject({
      status: 'paid',
      providerInvoiceId: paid.transaction.id,
      amount: 19000,
    })
    expect(await subscriptionOf(started.organizationId)).toMatchObject({ planId: 'pro', interval: 'yearly' })
    expect(await ordersOf(started.organizationId)).toHaveLength(1)
  })

  it('applies a repeated delivery once, and stores nothing for a forged, foreign or stale one', async () => {
    const started = await startCheckout('Dora Duplicate', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    const paid = paddle.fake.completeCheckout(started.transactionId)
    const completed = paddle.fake.event('transaction.completed', paid.transaction)
    expect((await deliver(completed)).body).toEqual({ received: true, duplicate: false })
    const afterFirst = await orderOf(started.orderId)
    expect(afterFirst?.status).toBe('paid')
    // Paddle retries with the same event id; during a secret rotation it signs with both secrets.
    const rotated = signedPaddleDelivery(completed, [
      `pdl_ntfset_${randomBytes(16).toString('hex')}`,
      paddle.webhookSecret,
    ])
    const again = await handleBillingWebhook(db(), 'paddle', rotated.body, rotated.headers)
    expect(await again.json()).toEqual({ received: true, duplicate: true })
    expect(await orderOf(started.orderId)).toEqual(afterFirst)

    const eventsBefore = await db().select().from(billingEvents)
    const canceled = paddle.fake.event('transaction.canceled', { ...paid.transaction, status: 'canceled' })
    const genuine = signedPaddleDelivery(canceled, paddle.webhookSecret)
    const forged = genuine.body.replace('"origin":"api"', '"origin":"web"')
    expect(forged).not.toBe(genuine.body)
    expect((await handleBillingWebhook(db(), 'paddle', forged, genuine.headers)).status).toBe(400)
    const foreign = signedPaddleDelivery(canceled, `pdl_ntfset_${randomBytes(16).toString('hex')}`)
    expect((await handleBillingWebhook(db(), 'paddle', foreign.body, foreign.headers)).status).toBe(400)
    // Paddle's tolerance is five seconds: an older signature is a replay.
    const stale = signedPaddleDelivery(canceled, paddle.webhookSecret, { timestamp: new Date(Date.now() - 60_000) })
    expect((await handleBillingWebhook(db(), 'paddle', stale.body, stale.headers)).status, 'a replay').toBe(400)
    expect((await handleBillingWebhook(db(), 'paddle', genuine.body, new Headers())).status).toBe(400)
    const garbled = new Headers({ 'paddle-signature': 'ts=abc;h1=' })
    expect((await handleBillingWebhook(db(), 'paddle', genuine.body, garbled)).status).toBe(400)
    expect(await db().select().from(billingEvents)).toEqual(eventsBefore)
    expect(await orderOf(started.orderId)).toEqual(afterFirst)
  })

  it('marks an order canceled when its transaction is canceled unpaid, and closes at Paddle what Hatch stopped offering', async () => {
    const started = await startCheckout('Ezra Expired', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    const canceled = paddle.fake.cancelTransaction(started.transactionId)
    expect((await deliver(paddle.fake.event('transaction.canceled', canceled))).status).toBe(200)
    expect(await orderOf(started.orderId)).toMatchObject({ status: 'canceled' })
    const page = await h.trpc('query', 'paddle.get', started.owner.cookie, {
      transactionId: started.transactionId,
    })
    expect(page.data).toMatchObject({ status: 'closed', paddle: null })

    // Past Hatch's 24 hours, a transaction Paddle would still take is not offered.
    const late = await startCheckout('Lana Late', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    await db()
      .update(billingOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(billingOrders.id, late.orderId))
    const latePage = await h.trpc('query', 'paddle.get', late.owner.cookie, {
      transactionId: late.transactionId,
    })
    expect(latePage.data).toMatchObject({ status: 'expired', paddle: null })

    // The hourly task cancels it at Paddle (a paid one is left alone), and Paddle's event marks the order expired.
    const paidLate = await startCheckout('Pia Paidlate', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    await db()
      .update(billingOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(billingOrders.id, paidLate.orderId))
    paddle.fake.completeCheckout(paidLate.transactionId)
    expect(await closeOverdueProviderCheckouts(db())).toBe(1)
    expect(paddle.fake.transaction(late.transactionId)?.status).toBe('canceled')
    expect(paddle.fake.transaction(paidLate.transactionId)?.status).toBe('completed')
    const canceledLate = paddle.fake.event('transaction.canceled', paddle.fake.transaction(late.transactionId))
    expect((await deliver(canceledLate)).status).toBe(200)
    expect(await orderOf(late.orderId)).toMatchObject({ status: 'expired' })
    expect(await closeOverdueProviderCheckouts(db()), 'nothing is closed twice').toBe(0)
  })

  it('records a renewal as a new paid order once, and adds up refunds that Paddle sends one by one', async () => {
    const bought = await buy('Rene Renews', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    const renewal = paddle.fake.renew(bought.subscription.id)
    // Paddle sends "paid" and "completed" for each renewal; the second "completed" is a retry.
    const renewed = paddle.fake.event('transaction.completed', renewal.transaction)
    expect((await deliver(paddle.fake.event('transaction.paid', renewal.transaction))).status).toBe(200)
    expect((await deliver(renewed)).status).toBe(200)
    expect((await deliver(renewed)).status).toBe(200)
    const renewals = (await ordersOf(bought.organizationId)).filter((order) => order.kind === 'renewal')
    expect(renewals).toEqual([
      expect.objectContaining({ status: 'paid', providerInvoiceId: renewal.transaction.id, amount: 1900 }),
    ])
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({
      currentPeriodEnd: new Date(renewal.subscription.current_billing_period?.ends_at ?? ''),
    })

    // Two partial refunds, their events delivered newest first; one still awaiting Paddle's approval counts for nothing.
    const firstRefund = paddle.fake.refund(bought.transaction.id, 500)
    const secondRefund = paddle.fake.refund(bought.transaction.id, 700)
    paddle.fake.refund(bought.transaction.id, 300, 'pending_approval')
    expect((await deliver(paddle.fake.event('adjustment.created', secondRefund))).status).toBe(200)
    expect((await deliver(paddle.fake.event('adjustment.created', firstRefund))).status).toBe(200)
    expect(await orderOf(bought.orderId)).toMatchObject({ amountRefunded: 1200, status: 'partially_refunded' })
    const rest = paddle.fake.refund(bought.transaction.id, 1900 - 1200)
    expect((await deliver(paddle.fake.event('adjustment.updated', rest))).status).toBe(200)
    expect(await orderOf(bought.orderId)).toMatchObject({ amountRefunded: 1900, status: 'refunded' })
    expect(
      (await ordersOf(bought.organizationId)).find((order) => order.kind === 'renewal')?.amountRefunded,
      'the renewal was not refunded',
    ).toBe(0)

    // A card update is a zero transaction of the subscription: no order. A refund of another integration's sale on
    // the same Paddle account is acknowledged and changes nothing (not retried for days as if it came early).
    const ordersBefore = await ordersOf(bought.organizationId)
    const cardUpdate = paddle.fake.paymentMethodChange(bought.subscription.id)
    expect((await deliver(paddle.fake.event('transaction.completed', cardUpdate))).status).toBe(200)
    expect(await ordersOf(bought.organizationId)).toEqual(ordersBefore)
    const foreignRefund = paddle.fake.refund(paddle.fake.foreignSale().id, 500)
    expect((await deliver(paddle.fake.event('adjustment.created', foreignRefund))).body).toEqual({
      received: true,
      duplicate: false,
    })
    expect(await ordersOf(bought.organizationId)).toEqual(ordersBefore)
  })

  it('adds seats as previewed, charging the prorated amount at Paddle, and records that transaction as a change', async () => {
    const team = await buy('Sam Seats', { planId: 'team', interval: 'yearly', currency: 'USD', seats: 3 })
    const preview = await h.trpc<{ amountDue: number; prorationDate: Date }>(
      'query',
      'billing.previewSeats',
      team.owner.cookie,
      { seats: 5 },
    )
    expect(preview.error).toBeUndefined()
    expect(preview.data?.amountDue).toBeGreaterThan(0)
    // The owner reads the preview for nine minutes: Paddle prorates as of the change, a little less than shown.
    paddle.fake.advanceClock(9 * 60_000)
    const changed = await h.trpc<{ seats: number }>('mutation', 'billing.changeSeats', team.owner.cookie, {
      seats: 5,
      prorationDate: preview.data?.prorationDate,
      expectedAmountDue: preview.data?.amountDue,
    })
    expect(changed.data).toMatchObject({ seats: 5 })
    expect(paddle.fake.subscription(team.subscription.id)?.items[0]).toMatchObject({
      quantity: 5,
      price: { custom_data: { hatch_order_id: team.orderId, hatch_plan: 'team' } },
    })
    const change = paddle.fake.transactionsOf(team.subscription.id).find((txn) => txn.origin === 'subscription_update')
    const charged = Number(change?.details.totals.grand_total)
    expect(charged, 'less than the owner confirmed, as time passed').toBeLessThan(preview.data?.amountDue ?? 0)
    expect(charged).toBeGreaterThanOrEqual((preview.data?.amountDue ?? 0) * 0.99)
    expect((await deliver(paddle.fake.event('transaction.completed', change))).status).toBe(200)
    expect((await ordersOf(team.organizationId)).find((order) => order.kind === 'change')).toMatchObject({
      status: 'paid',
      seats: 5,
      amount: Number(change?.details.totals.grand_total),
    })
    expect(await organizationPlan(db(), team.organizationId)).toMatchObject({ seats: 5 })
  })

  it('keeps the plan as it was when Paddle declines the change’s charge, and says so', async () => {
    const team = await buy('Dana Declined', { planId: 'team', interval: 'monthly', currency: 'USD', seats: 2 })
    const ordersBefore = await ordersOf(team.organizationId)
    paddle.fake.declineCharges(team.subscription.customer_id)
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
    expect(paddle.fake.subscription(team.subscription.id)?.items[0]?.quantity).toBe(2)
    expect(await subscriptionOf(team.organizationId)).toMatchObject({ seats: 2, status: 'active' })
    expect(await ordersOf(team.organizationId)).toHaveLength(ordersBefore.length)
  })

  it('cancels at the period’s end at Paddle, resumes, opens the customer portal, and repairs what changed there', async () => {
    const bought = await buy('Cleo Cancels', { planId: 'pro', interval: 'monthly', currency: 'USD' })
    const cancel = await h.trpc('mutation', 'billing.setCancelAtPeriodEnd', bought.owner.cookie, {
      cancelAtPeriodEnd: true,
    })
    expect(cancel.error).toBeUndefined()
    expect(paddle.fake.subscription(bought.subscription.id)?.scheduled_change).toMatchObject({ action: 'cancel' })
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' })
    const resume = await h.trpc('mutation', 'billing.setCancelAtPeriodEnd', bought.owner.cookie, {
      cancelAtPeriodEnd: false,
    })
    expect(resume.error).toBeUndefined()
    expect(paddle.fake.subscription(bought.subscription.id)?.scheduled_change).toBeNull()
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ cancelAtPeriodEnd: false })

    const portal = await h.trpc<{ url: string }>('mutation', 'billing.portal', bought.owner.cookie, { locale: 'zh' })
    expect(portal.data?.url).toMatch(
      new RegExp(`^${paddle.fake.url}/portal/${bought.subscription.customer_id}\\?token=`),
    )

    // The customer cancels in Paddle's portal and the webhook is lost: reconcile finds it and puts it right.
    const provider = await paymentProviderFor(db(), 'paddle')
    paddle.fake.setSubscription(bought.subscription.id, {
      scheduled_change: {
        action: 'cancel',
        effective_at: bought.subscription.current_billing_period?.ends_at ?? '',
        resume_at: null,
      },
    })
    expect(await reconcileSubscriptions(db(), provider)).toContain(bought.subscription.id)
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ cancelAtPeriodEnd: true })
    expect(await reconcileSubscriptions(db(), provider), 'nothing drifts twice').not.toContain(bought.subscription.id)

    // Someone breaks the row by hand; replaying a stored event puts back what Paddle says, and adds no order.
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
    expect(await replayEvent(db(), provider, about('subscription.activated', 'id'))).toBe(true)
    expect(await replayEvent(db(), provider, about('transaction.completed', 'subscription_id'))).toBe(true)
    expect(await subscriptionOf(bought.organizationId)).toMatchObject({ status: 'active' })
    expect(await ordersOf(bought.organizationId)).toHaveLength(ordersBefore)
  })

  it('closes the other providers’ webhooks while Paddle takes payments', async () => {
    expect((await handleBillingWebhook(db(), 'local', '{}', new Headers())).status).toBe(404)
    expect((await handleBillingWebhook(db(), 'stripe', '{}', new Headers())).status).toBe(404)
  })
})
