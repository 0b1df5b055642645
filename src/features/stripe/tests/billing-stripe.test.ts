// The billing ledger behind Stripe: the events Stripe sends (through a fake Stripe API that the provider really calls),
// signed and verified as the webhook route verifies them, late, twice and out of order; and what the ledger ends with.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EventArrivedEarlyError,
  receiveEvent,
  reconcileSubscriptions,
  replayEvent,
  WebhookSignatureError,
} from '#/features/billing/server'
import { StripePaymentProvider } from '#/features/stripe/server/provider'
import { type BillingInterval, type Currency, type PaidPlanId, periodAmount, planById } from '#/lib/plans'
import { billingEvents, billingOrders, billingSubscriptions } from '#/server/db/schema'
import { organizationPlan } from '#/server/plan-limits'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import {
  type FakeCheckoutSession,
  type FakeEvent,
  type FakeInvoice,
  type FakeStripe,
  type FakeSubscription,
  signedDelivery,
  startFakeStripe,
} from './fake-stripe'

const secretKey = 'sk_test_hatch_ledger'
const webhookSecret = 'whsec_hatch_ledger_secret'

const at = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null)
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000)

interface Purchase {
  plan: PaidPlanId
  interval: BillingInterval
  currency: Currency
  seats: number
}

/** What a checkout that Hatch started leaves behind: the owner, the workspace, the pending order and Stripe's session. */
interface StartedCheckout {
  owner: Person
  organizationId: string
  orderId: string
  checkoutId: string
  amount: number
}

/** A checkout the buyer finished at Stripe, with the subscription it started and the first invoice it paid. */
interface FinishedCheckout extends StartedCheckout {
  session: FakeCheckoutSession
  subscriptionId: string
  invoice: FakeInvoice
  paymentIntentId: string
  completed: FakeEvent<FakeCheckoutSession>
  invoicePaid: FakeEvent<FakeInvoice>
}

describe.each(engines)('the billing ledger with Stripe on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let fake: FakeStripe
  let provider: StripePaymentProvider
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    fake = await startFakeStripe()
    provider = new StripePaymentProvider({ secretKey, webhookSecret, apiUrl: fake.url, paymentMethods: ['card'] })
  })

  afterAll(async () => {
    await fake?.close()
    await database?.dispose()
  })

  /** Stripe delivers an event to the webhook: the route checks the signature, then the ledger stores and applies it. */
  const deliver = async (event: FakeEvent) => {
    const { body, headers } = signedDelivery(event, webhookSecret)
    const verified = await provider.verifyEvent(body, headers)
    return receiveEvent(db(), provider, verified)
  }

  const orderOf = async (id: string) => (await db().select().from(billingOrders).where(eq(billingOrders.id, id)))[0]
  const ordersOf = (organizationId: string) =>
    db().select().from(billingOrders).where(eq(billingOrders.organizationId, organizationId))
  const subscriptionsOf = (organizationId: string) =>
    db().select().from(billingSubscriptions).where(eq(billingSubscriptions.organizationId, organizationId))
  const subscriptionRow = async (subscriptionId: string) =>
    (
      await db()
        .select()
        .from(billingSubscriptions)
        .where(eq(billingSubscriptions.providerSubscriptionId, subscriptionId))
    )[0]
  const storedEvent = async (id: string) => (await db().select().from(billingEvents).where(eq(billingEvents.id, id)))[0]
  const planOf = async (organizationId: string) => {
    const { plan, seats } = await organizationPlan(db(), organizationId)
    return { planId: plan.id, seats }
  }
  /** Stripe's subscription as the fake has it now (it must exist). */
  const stripeSubscription = (id: string): FakeSubscription => {
    const subscription = fake.subscription(id)
    if (!subscription) throw new Error(`The fake has no subscription ${id}`)
    return subscription
  }
  const itemOf = (subscription: FakeSubscription) => {
    const item = subscription.items.data[0]
    if (!item) throw new Error(`Subscription ${subscription.id} has no items`)
    return item
  }

  /**
   * A new owner signs up and starts a checkout from their workspace, as `billing.startCheckout` does: a pending order,
   * then a Stripe Checkout session for it, whose id the order keeps.
   */
  const startCheckout = async (
    name: string,
    { plan = 'team', interval = 'yearly', currency = 'USD', seats = 3 }: Partial<Purchase> = {},
  ): Promise<StartedCheckout> => {
    const owner = await h.signUp(name)
    const organizationId = (await h.activeOrganizationOf(owner)) ?? ''
    expect(organizationId, `${name} has a workspace`).not.toBe('')
    const definition = planById(plan)
    const billedSeats = definition.perSeat ? seats : 1
    const amount = periodAmount(definition, interval, currency, billedSeats)
    const orderId = randomUUID()
    await db().insert(billingOrders).values({
      id: orderId,
      organizationId,
      createdById: owner.id,
      provider: 'stripe',
      kind: 'checkout',
      planId: plan,
      interval,
      seats: billedSeats,
      currency,
      amount,
      status: 'pending',
    })
    const { checkoutId } = await provider.createCheckout({
      orderId,
      organizationId,
      organizationName: `${name}'s workspace`,
      userId: owner.id,
      customerEmail: owner.email,
      customerId: null,
      planId: plan,
      planName: `Hatch ${plan}`,
      interval,
      currency,
      seats: billedSeats,
      amount,
      unitAmount: definition.prices[currency][interval],
      locale: 'en',
      successUrl: `http://app.test/en/my-orders?order=${orderId}`,
      cancelUrl: 'http://app.test/en/?checkout={outcome}#pricing',
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    })
    await db().update(billingOrders).set({ providerCheckoutId: checkoutId }).where(eq(billingOrders.id, orderId))
    return { owner, organizationId, orderId, checkoutId, amount }
  }

  /** The buyer pays at Stripe; Stripe completes the session and pays the subscription's first invoice. */
  const finishCheckout = (started: StartedCheckout, options: { shape?: 'current' | 'legacy' } = {}) => {
    const session = fake.completeCheckout(started.checkoutId)
    const subscriptionId = session.subscription ?? ''
    const paymentIntentId = `pi_${randomUUID().replaceAll('-', '')}`
    const invoice = fake.invoice(subscriptionId, { shape: options.shape, paymentIntentId })
    return {
      ...started,
      session,
      subscriptionId,
      invoice,
      paymentIntentId,
      completed: fake.event('checkout.session.completed', session),
      invoicePaid: fake.event('invoice.paid', invoice),
    } satisfies FinishedCheckout
  }

  /** A whole purchase, its events delivered in the order Stripe usually sends them. */
  const buy = async (name: string, purchase: Partial<Purchase> = {}): Promise<FinishedCheckout> => {
    const finished = finishCheckout(await startCheckout(name, purchase))
    expect(await deliver(finished.completed)).toEqual({ outcome: 'applied' })
    expect(await deliver(finished.invoicePaid)).toEqual({ outcome: 'applied' })
    expect((await orderOf(finished.orderId))?.status, `${name}'s order is paid`).toBe('paid')
    return finished
  }

  /** What the ledger holds for a paid first invoice, as Stripe's objects say it. */
  const paidCheckoutOrder = (purchase: FinishedCheckout) => {
    const line = purchase.invoice.lines.data[0]
    return {
      id: purchase.orderId,
      kind: 'checkout',
      status: 'paid',
      amount: purchase.amount,
      amountRefunded: 0,
      providerCheckoutId: purchase.checkoutId,
      providerSubscriptionId: purchase.subscriptionId,
      providerInvoiceId: purchase.invoice.id,
      providerPaymentId: purchase.paymentIntentId,
      receiptUrl: `${fake.url}/i/${purchase.invoice.id}`,
      periodStart: at(line?.period.start),
      periodEnd: at(line?.period.end),
      paidAt: expect.any(Date),
    }
  }

  /** The subscription row as Stripe's subscription says it should be now. */
  const rowMatchingStripe = (subscriptionId: string) => {
    const subscription = stripeSubscription(subscriptionId)
    const item = itemOf(subscription)
    return {
      providerSubscriptionId: subscriptionId,
      providerCustomerId: subscription.customer,
      planId: subscription.metadata.hatch_plan,
      interval: subscription.metadata.hatch_interval,
      seats: item.quantity,
      amount: item.price.unit_amount * item.quantity,
      currency: subscription.currency.toUpperCase(),
      currentPeriodStart: at(item.current_period_start),
      currentPeriodEnd: at(item.current_period_end),
    }
  }

  it('records a Team checkout paid at Stripe: the order is paid with its invoice and the subscription is active', async () => {
    const purchase = finishCheckout(await startCheckout('Ada Inorder', { plan: 'team', interval: 'yearly', seats: 3 }))
    expect(purchase.amount).toBe(3 * 49000)
    expect((await orderOf(purchase.orderId))?.status).toBe('pending')
    expect(await planOf(purchase.organizationId)).toEqual({ planId: 'free', seats: 1 })

    expect(await deliver(purchase.completed)).toEqual({ outcome: 'applied' })
    expect(await orderOf(purchase.orderId)).toMatchObject({
      status: 'paid',
      providerCheckoutId: purchase.checkoutId,
      providerSubscriptionId: purchase.subscriptionId,
      providerInvoiceId: null,
      receiptUrl: null,
    })

    expect(await deliver(purchase.invoicePaid)).toEqual({ outcome: 'applied' })
    const orders = await ordersOf(purchase.organizationId)
    expect(orders).toHaveLength(1)
    expect(orders[0]).toMatchObject(paidCheckoutOrder(purchase))
    expect(orders[0]?.periodEnd?.getTime()).toBeGreaterThan(orders[0]?.periodStart?.getTime() ?? Infinity)

    const subscriptions = await subscriptionsOf(purchase.organizationId)
    expect(subscriptions).toHaveLength(1)
    expect(subscriptions[0]).toMatchObject({
      provider: 'stripe',
      providerSubscriptionId: purchase.subscriptionId,
      providerCustomerId: purchase.session.customer,
      planId: 'team',
      interval: 'yearly',
      seats: 3,
      currency: 'USD',
      amount: 3 * 49000,
      status: 'active',
      cancelAtPeriodEnd: false,
      canceledAt: null,
    })
    expect(subscriptions[0]).toMatchObject(rowMatchingStripe(purchase.subscriptionId))
    expect(await planOf(purchase.organizationId)).toEqual({ planId: 'team', seats: 3 })
  })

  it('ends the same when the first invoice is paid before the checkout completion arrives', async () => {
    const purchase = finishCheckout(
      await startCheckout('Otto Outoforder', { plan: 'pro', interval: 'monthly', currency: 'CNY' }),
    )
    expect(purchase.amount).toBe(12900)

    expect(await deliver(purchase.invoicePaid)).toEqual({ outcome: 'applied' })
    expect(await orderOf(purchase.orderId), 'the invoice alone pays the order').toMatchObject({
      ...paidCheckoutOrder(purchase),
      // The completion has not said which session yet; the order still knows it from when it started.
      providerCheckoutId: purchase.checkoutId,
    })
    const paidAt = (await orderOf(purchase.orderId))?.paidAt

    expect(await deliver(purchase.completed)).toEqual({ outcome: 'applied' })
    const orders = await ordersOf(purchase.organizationId)
    expect(orders).toHaveLength(1)
    expect(orders[0]).toMatchObject({ ...paidCheckoutOrder(purchase), paidAt })
    const subscriptions = await subscriptionsOf(purchase.organizationId)
    expect(subscriptions).toHaveLength(1)
    expect(subscriptions[0]).toMatchObject({
      ...rowMatchingStripe(purchase.subscriptionId),
      planId: 'pro',
      interval: 'monthly',
      seats: 1,
      currency: 'CNY',
      amount: 12900,
      status: 'active',
    })
    expect(await planOf(purchase.organizationId)).toEqual({ planId: 'pro', seats: 1 })
  })

  it('keeps Stripe’s current subscription when an older "updated" event arrives after a newer one', async () => {
    const purchase = await buy('Cora Canceler')
    const { subscriptionId, organizationId } = purchase
    // Stripe sends "updated" while the subscription is still plainly active; the delivery is held up.
    const olderActive = fake.event('customer.subscription.updated', stripeSubscription(subscriptionId), {
      created: minutesAgo(5),
    })
    expect(olderActive.data.object).toMatchObject({ status: 'active', cancel_at_period_end: false })

    // Then the owner cancels at the period's end in Stripe's portal, and that event arrives first.
    const periodEnd = itemOf(stripeSubscription(subscriptionId)).current_period_end ?? 0
    fake.setSubscription(subscriptionId, {
      cancel_at_period_end: true,
      cancel_at: periodEnd,
      canceled_at: Math.floor(Date.now() / 1000),
    })
    await deliver(fake.event('customer.subscription.updated', stripeSubscription(subscriptionId)))
    expect(await subscriptionRow(subscriptionId)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      canceledAt: null,
    })

    expect(await deliver(olderActive)).toEqual({ outcome: 'applied' })
    expect(await subscriptionRow(subscriptionId), 'the older payload does not undo the cancellation').toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
    })
    expect(await planOf(organizationId), 'the plan holds until the period ends').toEqual({ planId: 'team', seats: 3 })

    // The period ends: Stripe cancels the subscription, and yet another stale "active" event limps in after.
    const anotherOlderActive = fake.event('customer.subscription.updated', olderActive.data.object, {
      created: minutesAgo(4),
    })
    fake.setSubscription(subscriptionId, { status: 'canceled', ended_at: periodEnd })
    await deliver(fake.event('customer.subscription.deleted', stripeSubscription(subscriptionId)))
    expect(await deliver(anotherOlderActive)).toEqual({ outcome: 'applied' })
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'canceled', canceledAt: at(periodEnd) })
    expect(await subscriptionsOf(organizationId)).toHaveLength(1)
    expect(await planOf(organizationId)).toEqual({ planId: 'free', seats: 1 })
    expect((await orderOf(purchase.orderId))?.status, 'the paid order stays paid').toBe('paid')
  })

  it('waits for a bank debit to settle before paying the order, and marks a debit that bounces as failed', async () => {
    // Settles: completed unpaid, then async_payment_succeeded.
    const settling = await startCheckout('Sid Settles', { plan: 'pro', interval: 'monthly', currency: 'USD' })
    const unpaid = fake.completeCheckout(settling.checkoutId, { paid: false })
    const subscriptionId = unpaid.subscription ?? ''
    expect(unpaid.payment_status).toBe('unpaid')
    expect(await deliver(fake.event('checkout.session.completed', unpaid))).toEqual({ outcome: 'applied' })
    expect(await orderOf(settling.orderId)).toMatchObject({
      status: 'pending',
      paidAt: null,
      providerSubscriptionId: subscriptionId,
    })
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'incomplete', planId: 'pro' })
    expect(await planOf(settling.organizationId), 'an incomplete subscription grants nothing').toEqual({
      planId: 'free',
      seats: 1,
    })

    fake.setSubscription(subscriptionId, { status: 'active' })
    const settled = { ...unpaid, payment_status: 'paid' as const }
    expect(await deliver(fake.event('checkout.session.async_payment_succeeded', settled))).toEqual({
      outcome: 'applied',
    })
    expect(await orderOf(settling.orderId)).toMatchObject({ status: 'paid', paidAt: expect.any(Date) })
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'active', planId: 'pro', amount: 1900 })
    expect(await planOf(settling.organizationId)).toEqual({ planId: 'pro', seats: 1 })

    // Bounces: completed unpaid, then async_payment_failed.
    const bouncing = await startCheckout('Bea Bounces', { plan: 'pro', interval: 'monthly', currency: 'USD' })
    const bouncingSession = fake.completeCheckout(bouncing.checkoutId, { paid: false })
    await deliver(fake.event('checkout.session.completed', bouncingSession))
    expect((await orderOf(bouncing.orderId))?.status).toBe('pending')
    expect(await deliver(fake.event('checkout.session.async_payment_failed', bouncingSession))).toEqual({
      outcome: 'applied',
    })
    expect(await orderOf(bouncing.orderId)).toMatchObject({ status: 'failed', paidAt: null })
    expect(await subscriptionRow(bouncingSession.subscription ?? '')).toMatchObject({ status: 'incomplete' })
    expect(await planOf(bouncing.organizationId)).toEqual({ planId: 'free', seats: 1 })
  })

  it('marks an order expired when its checkout expired, but not one that was paid before a late expiry', async () => {
    const abandoned = await startCheckout('Abe Abandons')
    const expired = fake.expireCheckout(abandoned.checkoutId)
    expect(await deliver(fake.event('checkout.session.expired', expired))).toEqual({ outcome: 'applied' })
    expect(await orderOf(abandoned.orderId)).toMatchObject({ status: 'expired', paidAt: null })
    expect(await subscriptionsOf(abandoned.organizationId)).toEqual([])

    const purchase = await buy('Pia Paid')
    const lateExpiry = fake.event(
      'checkout.session.expired',
      { ...purchase.session, status: 'expired' },
      { created: minutesAgo(30) },
    )
    expect(await deliver(lateExpiry)).toEqual({ outcome: 'applied' })
    expect(await orderOf(purchase.orderId)).toMatchObject(paidCheckoutOrder(purchase))
  })

  it('follows refunds by their running total, whatever order they arrive in', async () => {
    const purchase = await buy('Rita Refunds')
    const amount = purchase.amount
    const partial = fake.event(
      'charge.refunded',
      fake.charge(purchase.paymentIntentId, { amount, amountRefunded: 40000 }),
      { created: minutesAgo(2) },
    )
    const full = fake.event(
      'charge.refunded',
      fake.charge(purchase.paymentIntentId, { amount, amountRefunded: amount }),
    )

    expect(await deliver(partial)).toEqual({ outcome: 'applied' })
    expect(await orderOf(purchase.orderId)).toMatchObject({ status: 'partially_refunded', amountRefunded: 40000 })
    expect(await deliver(full)).toEqual({ outcome: 'applied' })
    expect(await orderOf(purchase.orderId)).toMatchObject({ status: 'refunded', amountRefunded: amount })

    // Stripe retries an older partial refund event (a new delivery of another event id) after the full one.
    const olderPartial = fake.event(
      'charge.refunded',
      fake.charge(purchase.paymentIntentId, { amount, amountRefunded: 40000 }),
      { created: minutesAgo(3) },
    )
    expect(await deliver(olderPartial)).toEqual({ outcome: 'applied' })
    expect(await orderOf(purchase.orderId)).toMatchObject({
      status: 'refunded',
      amountRefunded: amount,
      paidAt: expect.any(Date),
    })
    expect(await ordersOf(purchase.organizationId)).toHaveLength(1)
  })

  it('links a refund through Stripe when the webhook invoice leaves its payments out (as real ones do)', async () => {
    const started = await startCheckout('Ines Includable')
    const finished = finishCheckout(started)
    const { payments: _left, ...bareInvoice } = finished.invoice
    expect(await deliver(finished.completed)).toEqual({ outcome: 'applied' })
    expect(await deliver(fake.event('invoice.paid', bareInvoice))).toEqual({ outcome: 'applied' })
    expect((await orderOf(finished.orderId))?.providerPaymentId, 'the webhook named no payment').toBeNull()
    const refund = fake.event(
      'charge.refunded',
      fake.charge(finished.paymentIntentId, { amount: finished.amount, amountRefunded: finished.amount }),
    )
    expect(await deliver(refund)).toEqual({ outcome: 'applied' })
    expect(await orderOf(finished.orderId)).toMatchObject({ status: 'refunded', amountRefunded: finished.amount })
  })

  it('leaves a refund that arrives before its payment unprocessed, and applies it when Stripe retries', async () => {
    const finished = finishCheckout(await startCheckout('Earl Early'))
    expect(await deliver(finished.completed)).toEqual({ outcome: 'applied' })
    const refund = fake.event(
      'charge.refunded',
      fake.charge(finished.paymentIntentId, { amount: finished.amount, amountRefunded: 5000 }),
    )
    await expect(deliver(refund)).rejects.toThrow(EventArrivedEarlyError)
    expect(await storedEvent(refund.id)).toMatchObject({ processedAt: null, attempts: 1 })
    expect(await deliver(finished.invoicePaid)).toEqual({ outcome: 'applied' })
    expect(await deliver(refund), 'the retry').toEqual({ outcome: 'applied' })
    expect(await orderOf(finished.orderId)).toMatchObject({ status: 'partially_refunded', amountRefunded: 5000 })
  })

  it('acknowledges events about subscriptions and charges Hatch did not start, and records nothing for them', async () => {
    const purchase = await buy('Otto Other')
    const before = await subscriptionRow(purchase.subscriptionId)
    // Another integration of the same Stripe account: a subscription without Hatch's metadata.
    const foreign = fake.setSubscription(purchase.subscriptionId, { metadata: {}, status: 'canceled' })
    expect(await deliver(fake.event('customer.subscription.updated', foreign))).toEqual({ outcome: 'applied' })
    expect(await subscriptionRow(purchase.subscriptionId), 'nothing is taken from it').toEqual(before)
    const strangerCharge = fake.event(
      'charge.refunded',
      fake.charge('pi_not_ours', { amount: 500, amountRefunded: 500 }),
    )
    expect(await deliver(strangerCharge)).toEqual({ outcome: 'applied' })
  })

  it('links a refund to its order through an invoice in the pre-2025 shape too', async () => {
    const purchase = finishCheckout(
      await startCheckout('Lou Legacy', { plan: 'pro', interval: 'yearly', currency: 'USD' }),
      { shape: 'legacy' },
    )
    expect(purchase.invoice.payment_intent).toBe(purchase.paymentIntentId)
    await deliver(purchase.completed)
    await deliver(purchase.invoicePaid)
    expect(await orderOf(purchase.orderId)).toMatchObject(paidCheckoutOrder(purchase))
    const refund = fake.charge(purchase.paymentIntentId, { amount: 19000, amountRefunded: 19000 })
    await deliver(fake.event('charge.refunded', refund))
    expect(await orderOf(purchase.orderId)).toMatchObject({ status: 'refunded', amountRefunded: 19000 })
  })

  it('records a renewal invoice as a new paid order for the organization, once', async () => {
    const purchase = await buy('Rene Renews')
    const { subscriptionId, organizationId } = purchase
    // A year later Stripe moves the subscription to its next period and charges the renewal invoice.
    const item = itemOf(stripeSubscription(subscriptionId))
    const nextStart = item.current_period_end ?? 0
    const nextEnd = nextStart + 365 * 24 * 60 * 60
    const subscription = stripeSubscription(subscriptionId)
    fake.setSubscription(subscriptionId, {
      items: {
        ...subscription.items,
        data: [{ ...item, current_period_start: nextStart, current_period_end: nextEnd }],
      },
    })
    const renewal = fake.invoice(subscriptionId, { billingReason: 'subscription_cycle' })
    const paymentIntentId = renewal.payments?.data[0]?.payment.payment_intent
    expect(await deliver(fake.event('invoice.paid', renewal))).toEqual({ outcome: 'applied' })

    const orders = await ordersOf(organizationId)
    expect(orders).toHaveLength(2)
    const renewed = orders.find((order) => order.kind === 'renewal')
    expect(renewed).toMatchObject({
      kind: 'renewal',
      status: 'paid',
      provider: 'stripe',
      planId: 'team',
      interval: 'yearly',
      seats: 3,
      currency: 'USD',
      amount: 3 * 49000,
      amountRefunded: 0,
      providerCheckoutId: null,
      providerInvoiceId: renewal.id,
      providerPaymentId: paymentIntentId,
      providerSubscriptionId: subscriptionId,
      periodStart: at(nextStart),
      periodEnd: at(nextEnd),
      receiptUrl: renewal.hosted_invoice_url,
      paidAt: expect.any(Date),
    })
    expect(await orderOf(purchase.orderId), 'the first order keeps its own period').toMatchObject(
      paidCheckoutOrder(purchase),
    )
    expect(await subscriptionRow(subscriptionId)).toMatchObject({
      status: 'active',
      currentPeriodStart: at(nextStart),
      currentPeriodEnd: at(nextEnd),
    })

    // The same invoice reported again under another event id (a resend from the Dashboard) adds no second order.
    expect(await deliver(fake.event('invoice.paid', renewal))).toEqual({ outcome: 'applied' })
    expect(await ordersOf(organizationId)).toHaveLength(2)
  })

  it('keeps the plan while Stripe retries a failed renewal (past_due)', async () => {
    const purchase = await buy('Pat Pastdue')
    const { subscriptionId, organizationId } = purchase
    const ordersBefore = await ordersOf(organizationId)

    fake.setSubscription(subscriptionId, { status: 'past_due' })
    const failed = fake.invoice(subscriptionId, { billingReason: 'subscription_cycle', paid: false })
    expect(failed).toMatchObject({ status: 'open', amount_paid: 0 })
    expect(await deliver(fake.event('invoice.payment_failed', failed))).toEqual({ outcome: 'applied' })

    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: 'past_due', planId: 'team', seats: 3 })
    expect(await planOf(organizationId), 'past_due still grants the paid plan').toEqual({ planId: 'team', seats: 3 })
    expect(await ordersOf(organizationId), 'a failed renewal neither adds nor changes orders').toEqual(ordersBefore)
  })

  it('applies a repeated delivery once, and stores nothing for a forged or wrongly signed one', async () => {
    const started = await startCheckout('Dora Duplicate', { plan: 'pro', interval: 'monthly', currency: 'USD' })
    const purchase = finishCheckout(started)
    expect(await deliver(purchase.completed)).toEqual({ outcome: 'applied' })
    const orderAfterFirst = await orderOf(purchase.orderId)
    const subscriptionAfterFirst = await subscriptionRow(purchase.subscriptionId)
    const eventAfterFirst = await storedEvent(purchase.completed.id)
    expect(orderAfterFirst?.status).toBe('paid')
    expect(eventAfterFirst).toMatchObject({
      provider: 'stripe',
      type: 'checkout.session.completed',
      attempts: 1,
      processedAt: expect.any(Date),
      lastError: null,
    })

    expect(await deliver(purchase.completed)).toEqual({ outcome: 'duplicate' })
    expect(await orderOf(purchase.orderId)).toEqual(orderAfterFirst)
    expect(await subscriptionRow(purchase.subscriptionId)).toEqual(subscriptionAfterFirst)
    expect(await storedEvent(purchase.completed.id)).toEqual(eventAfterFirst)

    const eventsBefore = await db().select().from(billingEvents)
    const genuine = signedDelivery(purchase.invoicePaid, webhookSecret)
    const forged = genuine.body.replace(`"amount_paid": ${purchase.amount}`, '"amount_paid": 1')
    expect(forged).not.toBe(genuine.body)
    await expect(provider.verifyEvent(forged, genuine.headers)).rejects.toBeInstanceOf(WebhookSignatureError)
    const otherSecret = signedDelivery(purchase.invoicePaid, 'whsec_someone_else')
    await expect(provider.verifyEvent(otherSecret.body, otherSecret.headers)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    )
    await expect(provider.verifyEvent(genuine.body, new Headers())).rejects.toBeInstanceOf(WebhookSignatureError)
    expect(await db().select().from(billingEvents)).toEqual(eventsBefore)
    expect(await storedEvent(purchase.invoicePaid.id)).toBeUndefined()
    expect(await orderOf(purchase.orderId), 'the invoice was never recorded').toMatchObject({
      providerInvoiceId: null,
    })
  })

  it('repairs drift from Stripe without an event, and replays a stored Stripe event', async () => {
    // Everything the stories above left behind agrees with Stripe.
    expect(await reconcileSubscriptions(db(), provider)).toEqual([])

    const canceling = await buy('Drew Drifts')
    const growing = await buy('Gil Grows')
    const steady = await buy('Stan Steady')
    // Changes made in Stripe's Dashboard whose webhooks never arrive.
    const periodEnd = itemOf(stripeSubscription(canceling.subscriptionId)).current_period_end ?? 0
    fake.setSubscription(canceling.subscriptionId, { cancel_at_period_end: true, cancel_at: periodEnd })
    const growingStripe = stripeSubscription(growing.subscriptionId)
    fake.setSubscription(growing.subscriptionId, {
      items: { ...growingStripe.items, data: [{ ...itemOf(growingStripe), quantity: 5 }] },
    })

    const drifted = await reconcileSubscriptions(db(), provider)
    expect([...drifted].sort()).toEqual([canceling.subscriptionId, growing.subscriptionId].sort())
    expect(await subscriptionRow(canceling.subscriptionId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true })
    expect(await subscriptionRow(growing.subscriptionId)).toMatchObject({ seats: 5, amount: 5 * 49000 })
    expect(await subscriptionRow(steady.subscriptionId)).toMatchObject({ seats: 3, cancelAtPeriodEnd: false })
    expect(await planOf(growing.organizationId)).toEqual({ planId: 'team', seats: 5 })
    expect(await reconcileSubscriptions(db(), provider), 'nothing drifts twice').toEqual([])

    // Someone breaks the row by hand; replaying the stored first invoice puts back what Stripe says.
    await db()
      .update(billingSubscriptions)
      .set({ status: 'canceled', seats: 1, cancelAtPeriodEnd: false })
      .where(eq(billingSubscriptions.providerSubscriptionId, canceling.subscriptionId))
    expect(await replayEvent(db(), provider, canceling.invoicePaid.id)).toBe(true)
    expect(await subscriptionRow(canceling.subscriptionId)).toMatchObject({
      ...rowMatchingStripe(canceling.subscriptionId),
      status: 'active',
      seats: 3,
      cancelAtPeriodEnd: true,
    })
    expect(await ordersOf(canceling.organizationId), 'a replay adds no order').toHaveLength(1)
    expect(await orderOf(canceling.orderId)).toMatchObject(paidCheckoutOrder(canceling))
    expect(await storedEvent(canceling.invoicePaid.id)).toMatchObject({ attempts: 2, processedAt: expect.any(Date) })
    expect(await replayEvent(db(), provider, 'evt_never_received')).toBe(false)
  })
})
