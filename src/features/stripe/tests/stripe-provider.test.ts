import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CheckoutRequest, LedgerChange } from '#/features/billing/server'
import { ChargeDeclinedError, WebhookSignatureError } from '#/features/billing/server'
import { StripePaymentProvider } from '#/features/stripe/server/provider'
import { type FakeEvent, type FakeStripe, signedDelivery, startFakeStripe } from './fake-stripe'

const webhookSecret = 'whsec_hatch_test_secret'

let fake: FakeStripe
let provider: StripePaymentProvider
let orders = 0

beforeAll(async () => {
  fake = await startFakeStripe()
  provider = new StripePaymentProvider({
    secretKey: 'sk_test_hatch',
    webhookSecret,
    apiUrl: fake.url,
    paymentMethods: ['card', 'alipay'],
  })
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.requests.length = 0
})

function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  orders += 1
  return {
    orderId: `ord_${orders}`,
    organizationId: `org_${orders}`,
    organizationName: 'Acme',
    userId: 'user_1',
    customerEmail: 'owner@acme.test',
    customerId: null,
    planId: 'team',
    planName: 'Hatch Team',
    interval: 'yearly',
    currency: 'USD',
    seats: 3,
    amount: 3 * 49000,
    unitAmount: 49000,
    locale: 'en',
    successUrl: 'http://app.test/en/billing?checkout=success',
    cancelUrl: 'http://app.test/en/billing?checkout={outcome}',
    expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
    ...overrides,
  }
}

function only(method: string, path: string) {
  const matching = fake.requests.filter((request) => request.method === method && request.path === path)
  expect(matching).toHaveLength(1)
  return matching[0] as (typeof matching)[number]
}

/** A checkout the buyer has finished, with the subscription it started. */
async function paidSubscription(overrides: Partial<CheckoutRequest> = {}, paid = true) {
  const request = checkoutRequest(overrides)
  const { checkoutId } = await provider.createCheckout(request)
  const session = fake.completeCheckout(checkoutId, { paid })
  const subscriptionId = session.subscription as string
  return { request, session, subscriptionId }
}

const at = (seconds: number) => new Date(seconds * 1000)

describe('createCheckout', () => {
  it('opens a subscription session with per-seat line items, payment methods, metadata and an idempotency key', async () => {
    const request = checkoutRequest({ locale: 'zh' })
    const result = await provider.createCheckout(request)

    const call = only('POST', '/v1/checkout/sessions')
    const metadata = {
      hatch_order_id: request.orderId,
      hatch_organization_id: request.organizationId,
      hatch_plan: 'team',
      hatch_interval: 'yearly',
    }
    expect(call.body).toEqual({
      mode: 'subscription',
      line_items: [
        {
          quantity: '3',
          price_data: {
            currency: 'usd',
            unit_amount: '49000',
            recurring: { interval: 'year' },
            product_data: { name: 'Hatch Team' },
          },
        },
      ],
      payment_method_types: ['card', 'alipay'],
      customer_email: 'owner@acme.test',
      client_reference_id: request.organizationId,
      metadata,
      subscription_data: { metadata },
      success_url: 'http://app.test/en/billing?checkout=success',
      cancel_url: 'http://app.test/en/billing?checkout=canceled',
      expires_at: String(Math.floor(request.expiresAt.getTime() / 1000)),
      locale: 'zh',
    })
    expect(call.idempotencyKey).toBe(`checkout-${request.orderId}`)
    expect(call.stripeVersion).toBe('2026-10-28.endive')

    const session = fake.checkoutSession(result.checkoutId)
    expect(session?.status).toBe('open')
    expect(result).toEqual({ checkoutId: session?.id, url: session?.url })
    expect(result.url).toMatch(new RegExp(`^${fake.url}/c/pay/cs_test_`))
  })

  it('charges one unit for a flat plan and reuses the organization’s customer', async () => {
    const customer = fake.completeCheckout((await provider.createCheckout(checkoutRequest())).checkoutId).customer
    fake.requests.length = 0
    const request = checkoutRequest({
      planId: 'pro',
      planName: 'Hatch Pro',
      interval: 'monthly',
      currency: 'CNY',
      seats: 5,
      unitAmount: 12900,
      amount: 12900,
      customerId: customer,
    })
    await provider.createCheckout(request)

    const { body } = only('POST', '/v1/checkout/sessions')
    expect(body.line_items).toEqual([
      {
        quantity: '1',
        price_data: {
          currency: 'cny',
          unit_amount: '12900',
          recurring: { interval: 'month' },
          product_data: { name: 'Hatch Pro' },
        },
      },
    ])
    expect(body.customer).toBe(customer)
    expect(body).not.toHaveProperty('customer_email')
    expect(body.locale).toBe('en')
    expect(body.metadata).toMatchObject({ hatch_plan: 'pro', hatch_interval: 'monthly' })
  })

  it('answers a repeated order with the session it already made', async () => {
    const request = checkoutRequest()
    const first = await provider.createCheckout(request)
    const second = await provider.createCheckout(request)
    expect(second).toEqual(first)
    expect(new Set(fake.requests.map((call) => call.idempotencyKey))).toEqual(new Set([`checkout-${request.orderId}`]))
  })

  it('leaves payment_method_types out when none are configured, so Stripe picks from the account', async () => {
    const dynamic = new StripePaymentProvider({
      secretKey: 'sk_test_hatch',
      webhookSecret,
      apiUrl: fake.url,
      paymentMethods: [],
    })
    await dynamic.createCheckout(checkoutRequest())
    expect(only('POST', '/v1/checkout/sessions').body).not.toHaveProperty('payment_method_types')
  })

  it('rejects with Stripe’s error when Stripe refuses the session', async () => {
    await expect(provider.createCheckout(checkoutRequest({ customerId: 'cus_unknown' }))).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
    })
  })
})

describe('verifyEvent', () => {
  function subscriptionEvent(): FakeEvent {
    return fake.event(
      'customer.subscription.updated',
      { id: 'sub_signed', object: 'subscription' },
      { id: 'evt_signed' },
    )
  }

  it('accepts a body signed with the webhook secret and reads it', async () => {
    const created = new Date('2026-11-02T10:00:00Z')
    const event = fake.event(
      'customer.subscription.updated',
      { id: 'sub_1', object: 'subscription' },
      {
        id: 'evt_1',
        created,
      },
    )
    const delivery = signedDelivery(event, webhookSecret)
    const verified = await provider.verifyEvent(delivery.body, delivery.headers)
    expect(verified).toEqual({
      id: 'evt_1',
      type: 'customer.subscription.updated',
      created,
      payload: JSON.parse(delivery.body),
      changes: [{ type: 'subscription.changed', subscriptionId: 'sub_1' }],
    })
  })

  it('refuses a body changed after signing', async () => {
    const delivery = signedDelivery(subscriptionEvent(), webhookSecret)
    const tampered = delivery.body.replace('sub_signed', 'sub_other')
    expect(tampered).not.toBe(delivery.body)
    await expect(provider.verifyEvent(tampered, delivery.headers)).rejects.toBeInstanceOf(WebhookSignatureError)
  })

  it('refuses a body signed with another secret', async () => {
    const delivery = signedDelivery(subscriptionEvent(), 'whsec_someone_else')
    await expect(provider.verifyEvent(delivery.body, delivery.headers)).rejects.toBeInstanceOf(WebhookSignatureError)
  })

  it('refuses a body without a signature header, or with a garbled one', async () => {
    const delivery = signedDelivery(subscriptionEvent(), webhookSecret)
    await expect(provider.verifyEvent(delivery.body, new Headers())).rejects.toBeInstanceOf(WebhookSignatureError)
    const garbled = new Headers({ 'stripe-signature': 'nonsense' })
    await expect(provider.verifyEvent(delivery.body, garbled)).rejects.toBeInstanceOf(WebhookSignatureError)
  })

  it('refuses a signature older than five minutes (a replayed delivery)', async () => {
    const delivery = signedDelivery(subscriptionEvent(), webhookSecret, {
      timestamp: new Date(Date.now() - 10 * 60_000),
    })
    await expect(provider.verifyEvent(delivery.body, delivery.headers)).rejects.toBeInstanceOf(WebhookSignatureError)
  })
})

describe('readStoredEvent', () => {
  const changesOf = (event: FakeEvent) => provider.readStoredEvent(JSON.parse(JSON.stringify(event))).changes

  it('reads a completed, paid checkout as its order completed plus a changed subscription', async () => {
    const { request, session, subscriptionId } = await paidSubscription()
    expect(changesOf(fake.event('checkout.session.completed', session))).toEqual<LedgerChange[]>([
      {
        type: 'checkout.completed',
        orderId: request.orderId,
        checkoutId: session.id,
        paid: true,
        subscriptionId,
        customerId: session.customer as string,
      },
      { type: 'subscription.changed', subscriptionId },
    ])
  })

  it('reads a checkout completed before the money arrived as not paid, and its async outcome after', async () => {
    const { request, session, subscriptionId } = await paidSubscription({}, false)
    expect(session.payment_status).toBe('unpaid')
    const [completed] = changesOf(fake.event('checkout.session.completed', session))
    expect(completed).toMatchObject({ type: 'checkout.completed', orderId: request.orderId, paid: false })

    const settled = { ...session, payment_status: 'paid' }
    expect(changesOf(fake.event('checkout.session.async_payment_succeeded', settled))).toEqual([
      { ...completed, paid: true },
      { type: 'subscription.changed', subscriptionId },
    ])
    expect(changesOf(fake.event('checkout.session.async_payment_failed', session))).toEqual([
      { type: 'payment.failed', orderId: request.orderId },
    ])
  })

  it('counts a checkout that needed no payment as paid', async () => {
    const { session } = await paidSubscription()
    const [completed] = changesOf(
      fake.event('checkout.session.completed', { ...session, payment_status: 'no_payment_required' }),
    )
    expect(completed).toMatchObject({ type: 'checkout.completed', paid: true })
  })

  it('reads an expired checkout as its order expired', async () => {
    const request = checkoutRequest()
    const { checkoutId } = await provider.createCheckout(request)
    const session = fake.expireCheckout(checkoutId)
    expect(changesOf(fake.event('checkout.session.expired', session))).toEqual([
      { type: 'checkout.expired', orderId: request.orderId, checkoutId },
    ])
  })

  it('ignores sessions that no Hatch checkout made', () => {
    const foreign = { id: 'cs_foreign', object: 'checkout.session', metadata: {}, payment_status: 'paid' }
    expect(changesOf(fake.event('checkout.session.completed', foreign))).toEqual([])
    expect(changesOf(fake.event('checkout.session.expired', foreign))).toEqual([])
  })

  describe.each(['current', 'legacy'] as const)('invoices in the %s shape', (shape) => {
    it('reads the first paid invoice as the order’s payment, with its period and receipt', async () => {
      const { request, subscriptionId } = await paidSubscription()
      const invoice = fake.invoice(subscriptionId, { shape, paymentIntentId: 'pi_first' })
      const line = invoice.lines.data[0]
      expect(changesOf(fake.event('invoice.paid', invoice))).toEqual<LedgerChange[]>([
        {
          type: 'payment.succeeded',
          orderId: request.orderId,
          subscriptionId,
          invoiceId: invoice.id,
          paymentId: 'pi_first',
          amount: 3 * 49000,
          currency: 'USD',
          periodStart: at(line?.period.start ?? 0),
          periodEnd: at(line?.period.end ?? 0),
          receiptUrl: invoice.hosted_invoice_url,
        },
        { type: 'subscription.changed', subscriptionId },
      ])
      expect(line?.period.end).toBeGreaterThan(line?.period.start ?? Number.POSITIVE_INFINITY)
    })

    it('finds the order in the subscription details when the lines carry no metadata', async () => {
      const { request, subscriptionId } = await paidSubscription()
      const invoice = fake.invoice(subscriptionId, { shape })
      for (const line of invoice.lines.data) line.metadata = {}
      const [payment] = changesOf(fake.event('invoice.paid', invoice))
      expect(payment).toMatchObject({ type: 'payment.succeeded', orderId: request.orderId })
    })

    it('pays no order with a renewal', async () => {
      const { subscriptionId } = await paidSubscription()
      const invoice = fake.invoice(subscriptionId, { shape, billingReason: 'subscription_cycle' })
      const [payment] = changesOf(fake.event('invoice.paid', invoice))
      expect(payment).toMatchObject({ type: 'payment.succeeded', subscriptionId, amount: 3 * 49000 })
      expect(payment).toHaveProperty('orderId', undefined)
    })

    it('reads a failed invoice as a failed payment of the subscription', async () => {
      const { subscriptionId } = await paidSubscription()
      const invoice = fake.invoice(subscriptionId, { shape, paid: false, billingReason: 'subscription_cycle' })
      expect(changesOf(fake.event('invoice.payment_failed', invoice))).toEqual<LedgerChange[]>([
        { type: 'payment.failed', subscriptionId, invoiceId: invoice.id },
        { type: 'subscription.changed', subscriptionId },
      ])
    })
  })

  it.each([
    'customer.subscription.created',
    'customer.subscription.updated',
    'customer.subscription.deleted',
    'customer.subscription.paused',
    'customer.subscription.resumed',
    'customer.subscription.trial_will_end',
  ])('reads %s as a changed subscription', async (type) => {
    const { subscriptionId } = await paidSubscription()
    const subscription = fake.subscription(subscriptionId)
    expect(changesOf(fake.event(type, subscription))).toEqual([{ type: 'subscription.changed', subscriptionId }])
  })

  it('reads a refunded charge as the refunds so far on its payment intent', () => {
    const charge = fake.charge('pi_refunded', { amount: 4900, amountRefunded: 1500 })
    expect(changesOf(fake.event('charge.refunded', charge))).toEqual([
      { type: 'payment.refunded', paymentId: 'pi_refunded', amountRefunded: 1500 },
    ])
  })

  it('acknowledges other events without changes', () => {
    const stored = provider.readStoredEvent(
      JSON.parse(JSON.stringify(fake.event('customer.created', { id: 'cus_1', object: 'customer' }, { id: 'evt_x' }))),
    )
    expect(stored).toMatchObject({ id: 'evt_x', type: 'customer.created', changes: [] })
  })

  it('refuses what is not a Stripe event', () => {
    expect(() =>
      provider.readStoredEvent({ id: 'levt_1', type: 'payment.succeeded', created: 1, changes: [] }),
    ).toThrow(WebhookSignatureError)
    expect(() => provider.readStoredEvent(null)).toThrow(WebhookSignatureError)
  })
})

describe('retrieveSubscription', () => {
  it('describes a new subscription from its metadata, item and periods', async () => {
    const { request, session, subscriptionId } = await paidSubscription()
    const item = fake.subscription(subscriptionId)?.items.data[0]
    expect(await provider.retrieveSubscription(subscriptionId)).toEqual({
      id: subscriptionId,
      customerId: session.customer,
      organizationId: request.organizationId,
      planId: 'team',
      interval: 'yearly',
      seats: 3,
      currency: 'USD',
      amount: 3 * 49000,
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodStart: at(item?.current_period_start ?? 0),
      currentPeriodEnd: at(item?.current_period_end ?? 0),
      canceledAt: null,
    })
    expect(item?.current_period_end).toBeGreaterThan(item?.current_period_start ?? Number.POSITIVE_INFINITY)
  })

  it('is incomplete while an unpaid checkout’s money is on its way', async () => {
    const { subscriptionId } = await paidSubscription({}, false)
    expect(await provider.retrieveSubscription(subscriptionId)).toMatchObject({ status: 'incomplete' })
  })

  it.each([
    ['trialing', 'trialing'],
    ['active', 'active'],
    ['past_due', 'past_due'],
    ['unpaid', 'past_due'],
    ['paused', 'past_due'],
    ['incomplete', 'incomplete'],
    ['incomplete_expired', 'canceled'],
    ['canceled', 'canceled'],
  ])('maps Stripe status %s to %s', async (stripeStatus, status) => {
    const { subscriptionId } = await paidSubscription()
    fake.setSubscription(subscriptionId, { status: stripeStatus })
    expect(await provider.retrieveSubscription(subscriptionId)).toMatchObject({ status })
  })

  it('counts a cancel_at date as ending at the period end, and dates the end only once it has ended', async () => {
    const { subscriptionId } = await paidSubscription()
    const asked = Math.floor(Date.now() / 1000)
    fake.setSubscription(subscriptionId, { cancel_at: asked + 86_400, canceled_at: asked })
    expect(await provider.retrieveSubscription(subscriptionId)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      canceledAt: null,
    })
    fake.setSubscription(subscriptionId, { status: 'canceled', ended_at: asked + 86_400 })
    expect(await provider.retrieveSubscription(subscriptionId)).toMatchObject({
      status: 'canceled',
      canceledAt: at(asked + 86_400),
    })
  })

  it('reads the period from the subscription itself in the older shape', async () => {
    const { subscriptionId } = await paidSubscription()
    const subscription = fake.subscription(subscriptionId)
    const item = subscription?.items.data[0]
    if (!subscription || !item) throw new Error('no subscription')
    const { current_period_start: _start, current_period_end: _end, ...legacyItem } = item
    fake.setSubscription(subscriptionId, {
      current_period_start: 1_700_000_000,
      current_period_end: 1_702_592_000,
      items: { ...subscription.items, data: [legacyItem] },
    })
    expect(await provider.retrieveSubscription(subscriptionId)).toMatchObject({
      currentPeriodStart: at(1_700_000_000),
      currentPeriodEnd: at(1_702_592_000),
    })
  })

  it('is null for a subscription Stripe does not know', async () => {
    expect(await provider.retrieveSubscription('sub_unknown')).toBeNull()
    expect(only('GET', '/v1/subscriptions/sub_unknown')).toBeDefined()
  })
})

describe('updateSubscription', () => {
  it('sets and clears cancel_at_period_end', async () => {
    const { subscriptionId } = await paidSubscription()
    fake.requests.length = 0

    expect(await provider.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true })).toMatchObject({
      cancelAtPeriodEnd: true,
      status: 'active',
      canceledAt: null,
    })
    expect(only('POST', `/v1/subscriptions/${subscriptionId}`).body).toEqual({ cancel_at_period_end: 'true' })
    expect(fake.subscription(subscriptionId)?.cancel_at_period_end).toBe(true)

    expect(await provider.updateSubscription(subscriptionId, { cancelAtPeriodEnd: false })).toMatchObject({
      cancelAtPeriodEnd: false,
    })
    expect(fake.subscription(subscriptionId)?.cancel_at_period_end).toBe(false)
  })

  it('rejects an update of a subscription Stripe does not know', async () => {
    await expect(provider.updateSubscription('sub_unknown', { cancelAtPeriodEnd: true })).rejects.toMatchObject({
      code: 'resource_missing',
    })
  })
})

describe('previewChange and changePlan', () => {
  const day = 24 * 60 * 60
  /** A subscription 10 days into a 30-day period, so that two thirds of it are unused. */
  async function midPeriod(overrides: Partial<CheckoutRequest> = {}) {
    const paid = await paidSubscription(overrides)
    const now = Math.floor(Date.now() / 1000)
    const subscription = fake.subscription(paid.subscriptionId)
    const item = subscription?.items.data[0]
    if (!subscription || !item) throw new Error('no subscription')
    fake.setSubscription(paid.subscriptionId, {
      items: {
        ...subscription.items,
        data: [{ ...item, current_period_start: now - 10 * day, current_period_end: now + 20 * day }],
      },
    })
    return { ...paid, now, periodEnd: now + 20 * day }
  }
  const team = (seats: number, interval: 'monthly' | 'yearly' = 'yearly') =>
    ({ planId: 'team', interval, seats, unitAmount: 49000, planName: 'Hatch Team' }) as const

  it('prices more seats as Stripe prorates them, and charges exactly that at the same instant', async () => {
    const { subscriptionId, now, periodEnd } = await midPeriod()
    fake.requests.length = 0
    const preview = await provider.previewChange(subscriptionId, team(5), at(now))

    expect(only('POST', '/v1/invoices/create_preview').body).toMatchObject({
      subscription: subscriptionId,
      subscription_details: { proration_behavior: 'always_invoice', proration_date: String(now) },
    })
    expect(preview).toMatchObject({
      currency: 'USD',
      credit: Math.round((3 * 49000 * 2) / 3),
      charge: Math.round((5 * 49000 * 2) / 3),
      amountDue: Math.round((5 * 49000 * 2) / 3) - Math.round((3 * 49000 * 2) / 3),
      creditLeft: 0,
      newAmount: 5 * 49000,
      periodEnd: at(periodEnd),
    })
    expect(fake.subscription(subscriptionId)?.items.data[0]?.quantity, 'a preview changes nothing').toBe(3)

    const { snapshot } = await provider.changePlan(subscriptionId, team(5), at(now))
    expect(
      fake.requests.find((r) => r.path === `/v1/subscriptions/${subscriptionId}` && r.method === 'POST')?.body,
    ).toMatchObject({
      proration_behavior: 'always_invoice',
      proration_date: String(now),
      payment_behavior: 'error_if_incomplete',
    })
    expect(snapshot).toMatchObject({ seats: 5, amount: 5 * 49000, currentPeriodEnd: at(periodEnd) })
    const invoice = fake.storedInvoice(fake.subscription(subscriptionId)?.latest_invoice ?? '')
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', amount_paid: preview.amountDue })
  })

  it('changes nothing when the card is declined, instead of leaving the subscription past due', async () => {
    const { subscriptionId, now } = await midPeriod()
    const customer = fake.subscription(subscriptionId)?.customer ?? ''
    const invoiceBefore = fake.subscription(subscriptionId)?.latest_invoice
    fake.declineCharges(customer)
    try {
      await expect(provider.changePlan(subscriptionId, team(5), at(now))).rejects.toBeInstanceOf(ChargeDeclinedError)
      const after = fake.subscription(subscriptionId)
      expect(after?.status).toBe('active')
      expect(after?.items.data[0]?.quantity).toBe(3)
      expect(after?.latest_invoice, 'no invoice left open').toBe(invoiceBefore)
      // Fewer seats charge nothing now (a credit), so a declining card does not stand in the way.
      const { snapshot } = await provider.changePlan(subscriptionId, team(2), at(now))
      expect(snapshot).toMatchObject({ seats: 2, status: 'active' })
    } finally {
      fake.declineCharges(customer, false)
    }
  })

  it('starts a new period at the change when the interval changes, and keeps a larger credit for later', async () => {
    const { subscriptionId, now } = await midPeriod()
    const preview = await provider.previewChange(
      subscriptionId,
      { planId: 'pro', interval: 'monthly', seats: 1, unitAmount: 1900, planName: 'Hatch Pro' },
      at(now),
    )
    const credit = Math.round((3 * 49000 * 2) / 3)
    expect(preview).toMatchObject({ credit, charge: 1900, amountDue: 0, creditLeft: credit - 1900, newAmount: 1900 })
    expect(preview.periodStart).toEqual(at(now))
    const renewal = new Date(now * 1000)
    renewal.setUTCMonth(renewal.getUTCMonth() + 1)
    expect(preview.periodEnd, 'a monthly plan renews in a month').toEqual(renewal)

    const { snapshot } = await provider.changePlan(
      subscriptionId,
      { planId: 'pro', interval: 'monthly', seats: 1, unitAmount: 1900, planName: 'Hatch Pro' },
      at(now),
    )
    expect(snapshot).toMatchObject({
      planId: 'pro',
      interval: 'monthly',
      seats: 1,
      amount: 1900,
      currentPeriodEnd: renewal,
    })

    // The credit left pays the next change first.
    const back = await provider.previewChange(subscriptionId, team(2, 'monthly'), at(now))
    expect(back.amountDue).toBe(Math.max(0, back.charge - back.credit - (credit - 1900)))
  })

  it('makes one product per plan under Hatch’s id and reuses it', async () => {
    const { subscriptionId, now } = await midPeriod()
    const pro = { planId: 'pro', interval: 'yearly', seats: 1, unitAmount: 19000, planName: 'Hatch Pro' } as const
    await provider.previewChange(subscriptionId, pro, at(now))
    fake.requests.length = 0
    await provider.changePlan(subscriptionId, pro, at(now))
    expect(
      fake.requests.some((r) => r.method === 'POST' && r.path === '/v1/products'),
      'made once',
    ).toBe(false)
    expect(fake.subscription(subscriptionId)?.items.data[0]?.price.product).toBe('hatch_plan_pro')
  })

  it('refuses a proration date outside the current period', async () => {
    const { subscriptionId, now } = await midPeriod()
    await expect(provider.previewChange(subscriptionId, team(4), at(now + 40 * day))).rejects.toMatchObject({
      param: 'subscription_details[proration_date]',
    })
  })
})

describe('portalUrl', () => {
  it('opens a billing portal session for the customer', async () => {
    const { session } = await paidSubscription()
    fake.requests.length = 0
    const url = await provider.portalUrl(session.customer as string, 'http://app.test/en/billing')
    const call = only('POST', '/v1/billing_portal/sessions')
    expect(call.body).toEqual({ customer: session.customer, return_url: 'http://app.test/en/billing' })
    expect(url).toMatch(new RegExp(`^${fake.url}/p/session/bps_`))
  })
})
