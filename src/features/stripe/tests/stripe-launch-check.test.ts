// Billing's item of "Before you launch" with Stripe configured: to do until a webhook whose signature checks out has
// arrived from Stripe, done once one has; a forged delivery is not stored, so it does not count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleBillingWebhook } from '#/features/billing/server'
import type { LaunchCheck } from '#/server/launch-checks'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type FakeStripe, signedDelivery, startFakeStripe } from './fake-stripe'

const webhookSecret = 'whsec_hatch_launch_check'
let fake: FakeStripe

beforeAll(async () => {
  fake = await startFakeStripe()
  process.env.STRIPE_SECRET_KEY = 'sk_test_hatch_launch_check'
  process.env.STRIPE_WEBHOOK_SECRET = webhookSecret
  process.env.STRIPE_API_URL = fake.url
})
afterAll(async () => {
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL']) delete process.env[name]
  await fake.close()
})

describe.each(engines)('Before you launch: payments through Stripe, on %s', (engine) => {
  let database: FreshDatabase
  const db = () => database.connection.db
  let admin: Person

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    admin = await organizationHarness(db()).signUp('Payments Admin')
  })
  afterAll(async () => {
    await database.dispose()
  })

  const paymentsItem = async () => {
    const answer = await organizationHarness(db()).trpc<{ checks: LaunchCheck[] }>(
      'query',
      'system.launchChecklist',
      admin.cookie,
      { locale: 'en' },
    )
    return answer.data?.checks.find((check) => check.id === 'payments')
  }

  it('is to do while no signed webhook has come from Stripe, and a forged one does not count', async () => {
    expect(await paymentsItem()).toMatchObject({
      done: false,
      detail: 'stripe is configured, but no signed webhook from it has arrived yet.',
      docs: '/docs/billing#checkout',
    })
    const { body, headers } = signedDelivery(fake.event('customer.created', { id: 'cus_forged' }), 'whsec_not_ours')
    expect((await handleBillingWebhook(db(), 'stripe', body, headers)).status).toBe(400)
    expect((await paymentsItem())?.done).toBe(false)
  })

  it('is done once a signed webhook from Stripe has been received', async () => {
    const received = new Date()
    const { body, headers } = signedDelivery(fake.event('customer.created', { id: 'cus_launch' }), webhookSecret)
    expect((await handleBillingWebhook(db(), 'stripe', body, headers)).status).toBe(200)
    const item = await paymentsItem()
    expect(item?.done).toBe(true)
    expect(item?.detail).toContain('stripe is configured; its latest signed webhook arrived')
    expect(item?.detail).toContain(String(received.getUTCFullYear()))
  })
})
