import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerAssistantRequest } from '#/features/assistant/server/assistant-chat'
import { bookAssistantTools } from '#/features/books/server/assistant-tools'
import { m } from '#/paraglide/messages'
import { createAiProvider } from '#/server/ai/provider'
import { usageMonth } from '#/server/billing/plan-limits'
import { aiConversations, aiUsage, billingOrders } from '#/server/db/schema'
import { StripePaymentProvider } from '#/server/payments/stripe-provider'
import { AppError } from '#/server/trpc/init'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import { testOrigin } from './auth-requests'
import { type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from './test-databases'

// Both providers are this proxy, with nothing behind it: it refuses connections, or accepts and never answers.
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

/** Fails the test instead of hanging it when something waits for ever. */
function withinBound<T>(work: Promise<T>, ms = 10_000): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ])
}

describe.each(engines)('AI and payment providers down or silent, on %s', (engine) => {
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

  it('tells the person the AI provider failed, in their language, when it accepts and never answers', async () => {
    silent.setMode('stall')
    // The production bound is 15 s (aiFirstAnswerTimeoutMs); the test sets a short one.
    const provider = createAiProvider({
      baseURL: `http://127.0.0.1:${providerPort}/v1`,
      model: 'fake-model',
      firstAnswerTimeoutMs: 300,
    })
    const id = `conv_fault_${Date.now()}`
    const response = await withinBound(
      answerAssistantRequest(
        new Request(`${testOrigin}/api/assistant`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: owner.cookie, origin: testOrigin },
          body: JSON.stringify({
            id,
            locale: 'zh',
            message: { id: `user_${id}`, role: 'user', parts: [{ type: 'text', text: '有人吗？' }] },
          }),
        }),
        {
          db: db(),
          clientIp: '127.0.0.1',
          provider,
          toolSets: [bookAssistantTools],
          requestsPerMinute: 1000,
          trustedOrigins: [testOrigin],
        },
      ).then((answer) => answer.text()),
    )
    const errors = response
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string; errorText?: string })
      .filter((chunk) => chunk.type === 'error')
    expect(errors[0]?.errorText).toBe(m.ai_provider_failed({}, { locale: 'zh' }))
    expect(await db().select().from(aiConversations).where(eq(aiConversations.id, id)), 'nothing stored').toEqual([])
    const [usage] = await db()
      .select({ requests: aiUsage.requests })
      .from(aiUsage)
      .where(and(eq(aiUsage.organizationId, organizationId), eq(aiUsage.month, usageMonth())))
    expect(usage?.requests ?? 0, 'the request is given back').toBe(0)
  })

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
