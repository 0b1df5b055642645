import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { billingOrders, billingSubscriptions, organizations } from '#/server/db/schema'
import { updateSiteSettings } from '#/server/settings'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'

interface RevenueNumbers {
  range: { from: string; to: string; granularity: string; timeZone: string }
  revenue: {
    currency: string
    orders: number
    revenue: number
    refunded: number
    series: { start: string; orders: number; revenue: number }[]
  }[]
  mrr: { currency: string; amount: number }[]
  subscriptionsByPlan: { planId: string; count: number }[]
  activeSubscriptions: number
}

// Days are cut in the dashboard's time zone: Shanghai is UTC+8, so 16:00 UTC is already the next day there.
const timeZone = 'Asia/Shanghai'
const march = { from: '2026-03-01', to: '2026-03-03' }

describe.each(engines)("the Dashboard's revenue on %s", (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  /** Ada is the install's first account (an app admin); Olga owns an organization. */
  let ada: Person
  let olga: Person
  let orgId: string
  const db = () => database.connection.db

  const revenue = (person: Person | undefined, input: unknown) =>
    h.trpc<RevenueNumbers>('query', 'billing.revenue', person?.cookie, input)
  const revenueOf = async (person: Person, input: unknown) => {
    const answer = await revenue(person, input)
    expect(answer.error, 'the revenue answers the admin').toBeUndefined()
    return answer.data as RevenueNumbers
  }

  const anotherOrganization = async (name: string) => {
    const id = randomUUID()
    await db()
      .insert(organizations)
      .values({ id, name, slug: `${name.toLowerCase()}-${id.slice(0, 8)}` })
    return id
  }
  const subscription = (organizationId: string, values: Record<string, unknown>) =>
    db()
      .insert(billingSubscriptions)
      .values({
        id: randomUUID(),
        organizationId,
        provider: 'local',
        providerSubscriptionId: randomUUID(),
        planId: 'pro',
        interval: 'monthly',
        currency: 'USD',
        amount: 1900,
        status: 'active',
        ...values,
      })
  const order = (values: Record<string, unknown>) =>
    db()
      .insert(billingOrders)
      .values({
        id: randomUUID(),
        organizationId: orgId,
        provider: 'local',
        kind: 'checkout',
        planId: 'pro',
        interval: 'monthly',
        currency: 'USD',
        amount: 1900,
        status: 'paid',
        ...values,
      })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    ada = await h.signUp('Ada Admin')
    olga = await h.signUp('Olga Owner')
    orgId = (await h.activeOrganizationOf(olga)) ?? ''
    await updateSiteSettings(db(), { analyticsTimeZone: timeZone })
  })

  afterAll(async () => {
    await database?.dispose()
  })

  it('shows the money to app admins only, in the Dashboard time zone', async () => {
    expect((await revenue(olga, march)).error?.code, 'an organization owner is not an app admin').toBe('FORBIDDEN')
    expect((await revenue(undefined, march)).error?.code).toBe('UNAUTHORIZED')
    const answer = await revenueOf(ada, march)
    expect(answer.range).toEqual({ ...march, granularity: 'day', timeZone })
    const inverted = await revenue(ada, { from: '2026-03-03', to: '2026-03-01' })
    expect(inverted.error?.code, 'a user mistake is a field error').toBe('BAD_REQUEST')
  })

  it('sums paid orders per currency and day, net of refunds, and normalizes yearly subscriptions into MRR', async () => {
    await order({ amount: 1900, paidAt: new Date('2026-03-01T17:00:00Z') }) // March 2 in Shanghai
    await order({
      amount: 4900,
      amountRefunded: 900,
      status: 'partially_refunded',
      paidAt: new Date('2026-03-02T01:00:00Z'),
    })
    await order({ amount: 12900, currency: 'CNY', paidAt: new Date('2026-03-03T12:00:00Z') })
    await order({ amount: 1900, status: 'refunded', amountRefunded: 1900, paidAt: new Date('2026-03-03T12:00:00Z') })
    await order({ amount: 1900, status: 'pending', createdAt: new Date('2026-03-02T01:00:00Z') })
    await order({ amount: 1900, status: 'failed', createdAt: new Date('2026-03-02T01:00:00Z') })
    await order({ amount: 1900, paidAt: new Date('2026-02-28T15:00:00Z') }) // February 28 in Shanghai: outside

    const pro = await anotherOrganization('Monthly')
    const team = await anotherOrganization('Yearly')
    const yuan = await anotherOrganization('Yuan')
    const trial = await anotherOrganization('Trial')
    const gone = await anotherOrganization('Gone')
    await subscription(pro, { planId: 'pro', interval: 'monthly', amount: 1900 })
    // A yearly Team subscription of three seats: `amount` is the whole year's price for all seats.
    await subscription(team, { planId: 'team', interval: 'yearly', seats: 3, amount: 147000, cancelAtPeriodEnd: true })
    await subscription(yuan, { planId: 'pro', interval: 'yearly', currency: 'CNY', amount: 129000, status: 'past_due' })
    await subscription(trial, { planId: 'team', seats: 2, amount: 9800, status: 'trialing' })
    await subscription(gone, { planId: 'pro', status: 'canceled' })

    const billing = await revenueOf(ada, march)
    expect(billing.revenue).toEqual([
      {
        currency: 'CNY',
        orders: 1,
        revenue: 12900,
        refunded: 0,
        series: [
          { start: '2026-03-01', orders: 0, revenue: 0 },
          { start: '2026-03-02', orders: 0, revenue: 0 },
          { start: '2026-03-03', orders: 1, revenue: 12900 },
        ],
      },
      {
        currency: 'USD',
        orders: 3,
        revenue: 1900 + 4000,
        refunded: 900 + 1900,
        series: [
          { start: '2026-03-01', orders: 0, revenue: 0 },
          { start: '2026-03-02', orders: 2, revenue: 5900 },
          { start: '2026-03-03', orders: 1, revenue: 0 },
        ],
      },
    ])
    expect(billing.mrr).toEqual([
      { currency: 'CNY', amount: 10750 },
      { currency: 'USD', amount: 1900 + 12250 },
    ])
    expect(billing.subscriptionsByPlan, 'trials grant their plan; canceled ones do not').toEqual([
      { planId: 'pro', count: 2 },
      { planId: 'team', count: 2 },
    ])
    expect(billing.activeSubscriptions).toBe(4)
  })
})
