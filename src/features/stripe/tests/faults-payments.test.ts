import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StripePaymentProvider } from '#/features/stripe/server/provider'
import { billingOrders } from '#/server/db/schema'
import { AppError } from '#/server/trpc/init'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { startTcpProxy, type TcpProxy } from '../../../../tests/support/tcp-proxy'
import { withinBound } from '../../../../tests/support/within-bound'

// The payment provider is this proxy, with nothing behind it: it refuses connections, or accepts and never answers.
// (The assistant's model provider: src/features/assistant/tests/provider-faults.test.ts.)
const providerPort = 2562
let silent: TcpProxy

beforeAll(async () => {
  silent = await startTcpProxy({ port: providerPort, target: { host: '127.0.0.1', port: 9 } })
  process.env.STRIPE_SECRET_KEY = 'sk_test_hatch_faults'
  process.env.STRIPE_WEBHOOK_SECRET = 'whsec_hatch_faults'
  process.env.STRIPE_API_URL = `http://127.0.0.1:${providerPort}`
})
afterAll(async () => {
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL']) delete process.env[name]
  await silent?.close()
})

describe.each(engines)('payment providers down or silent, on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let owner: Person
  let organizationId: string
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    owner = await h.signUp('Fay Faults')
    organizationId = await h.createOrganization(owner, 'Fault Library', 'fault-library')
  })
  afterAll(() => database.dispose())

  it('gives up on a silent Stripe within its timeout with a translated code', async () => {
    silent.setMode('stall')
    const stripe = new StripePaymentProvider({
      secretKey: 'sk_test_hatch_faults',
      webhookSecret: 'whsec_hatch_faults',
      apiUrl: `http://127.0.0.1:${providerPort}`,
      paymentMethods: [],
      timeoutMs: 300,
    })
    const failure = await withinBound(
      stripe
        .createCheckout({
          orderId: 'order-fault',
          organizationId,
          organizationName: 'Fault Library',
          userId: owner.id,
          customerEmail: owner.email,
          customerId: null,
          planId: 'pro',
          planName: 'Pro',
          interval: 'monthly',
          currency: 'USD',
          seats: 1,
          amount: 1000,
          unitAmount: 1000,
          locale: 'en',
          successUrl: `${testOrigin}/en/my-orders`,
          cancelUrl: `${testOrigin}/en/?checkout={outcome}`,
          expiresAt: new Date(Date.now() + 60 * 60 * 1000),
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        ),
    )
    expect(failure).toBeInstanceOf(AppError)
    expect((failure as AppError).appCode).toBe('PAYMENT_PROVIDER_UNAVAILABLE')
  })

  it('refuses a checkout clearly when Stripe is down, and leaves no half-made order', async () => {
    silent.setMode('refuse')
    const buyer = await h.signUp('Bea Buyer')
    const buyerOrganizationId = await h.createOrganization(buyer, 'Free Library', 'free-library', { plan: 'free' })
    const ordersOf = () =>
      db().select().from(billingOrders).where(eq(billingOrders.organizationId, buyerOrganizationId))
    const ordersBefore = await ordersOf()
    const start = await withinBound(
      h.trpc('mutation', 'billing.startCheckout', buyer.cookie, {
        planId: 'team',
        interval: 'monthly',
        currency: 'USD',
        seats: 2,
        locale: 'en',
      }),
      20_000,
    )
    expect(start.status).toBe(502)
    expect(start.error?.appCode).toBe('PAYMENT_PROVIDER_UNAVAILABLE')
    expect(await ordersOf(), 'no order left behind').toEqual(ordersBefore)
  })
})
