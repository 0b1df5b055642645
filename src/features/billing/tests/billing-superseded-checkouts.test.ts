import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { billingOrders, localPaymentObjects } from '#/server/db/schema'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import type { LocalCheckout } from '../server'
import { localPaymentProvider } from '../server'
import { closeOverdueProviderCheckouts } from '../server/operator-tasks'

interface OrderRow {
  id: string
  status: string
  resumeUrl: string | null
  processing: boolean
}
interface OrderPage {
  items: OrderRow[]
  unfinished: OrderRow[]
}

describe.each(engines)('checkouts a subscription replaced, on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let olga: Person
  const db = () => database.connection.db

  const mutate = <T>(path: string, input?: unknown) => h.trpc<T>('mutation', `billing.${path}`, olga.cookie, input)
  const query = <T>(path: string, input?: unknown) => h.trpc<T>('query', `billing.${path}`, olga.cookie, input)
  const startPro = async () => {
    const answer = await mutate<{ orderId: string; url: string }>('startCheckout', {
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
    })
    expect(answer.error, 'the checkout starts').toBeUndefined()
    const url = answer.data?.url ?? ''
    return { orderId: answer.data?.orderId ?? '', checkoutId: url.slice(url.lastIndexOf('/') + 1) }
  }
  const orders = async () => (await query<OrderPage>('orders')).data as OrderPage
  const orderRow = async (id: string) => (await orders()).items.find((order) => order.id === id)
  const localStatus = async (checkoutId: string) => (await localPaymentProvider(db()).getCheckout(checkoutId))?.status

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Twice')
  })

  afterAll(async () => {
    await database?.dispose()
  })

  it('shows an unfinished checkout as not finished (not processing), offered to resume', async () => {
    const abandoned = await startPro()
    const row = await orderRow(abandoned.orderId)
    expect(row, 'nobody paid: no payment is on its way').toMatchObject({ status: 'pending', processing: false })
    expect(row?.resumeUrl).toContain(`/pay/${abandoned.checkoutId}`)
  })

  it('ends the other open checkouts, at the provider too, once the organization pays through one', async () => {
    const abandoned = (await orders()).unfinished[0]
    expect(abandoned, 'the first checkout is still open').toBeDefined()
    const abandonedCheckout = abandoned?.resumeUrl?.split('/').pop() ?? ''
    const second = await startPro()
    const paid = await mutate('local.settle', { id: second.checkoutId, outcome: 'pay' })
    expect(paid.error, 'the second checkout is paid').toBeUndefined()

    const page = await orders()
    expect(page.unfinished, 'nothing is offered to resume').toEqual([])
    expect(page.items.find((order) => order.id === abandoned?.id)).toMatchObject({
      status: 'canceled',
      resumeUrl: null,
    })
    expect(await localStatus(abandonedCheckout), 'the provider stopped taking payment for it').toBe('canceled')
    const shown = await query<{ superseded: boolean }>('local.get', { id: abandonedCheckout })
    expect(shown.data?.superseded, 'its page says a subscription replaced it').toBe(true)
    const again = await mutate('local.settle', { id: abandonedCheckout, outcome: 'pay' })
    expect(again.error?.appCode, 'it cannot be paid').toBe('CHECKOUT_CLOSED')
  })

  it('refuses on the server a checkout the sweep missed, and the hourly maintenance ends it', async () => {
    const [paidOrder] = await db().select().from(billingOrders).where(eq(billingOrders.status, 'paid'))
    expect(paidOrder, 'the organization has paid for Pro').toBeDefined()
    // A checkout left open at the provider and in the ledger, as if ending it had failed.
    const [canceled] = await db().select().from(billingOrders).where(eq(billingOrders.status, 'canceled'))
    const checkoutId = canceled?.providerCheckoutId ?? ''
    const checkout = (await localPaymentProvider(db()).getCheckout(checkoutId)) as LocalCheckout
    await db()
      .update(localPaymentObjects)
      .set({ data: { ...checkout, status: 'open' } })
      .where(eq(localPaymentObjects.id, checkoutId))
    await db()
      .update(billingOrders)
      .set({ status: 'pending' })
      .where(eq(billingOrders.id, canceled?.id ?? ''))

    expect((await orders()).unfinished, 'not offered while another subscription is live').toEqual([])
    const shown = await query<{ superseded: boolean; status: string }>('local.get', { id: checkoutId })
    expect(shown.data).toMatchObject({ status: 'open', superseded: true })
    const refused = await mutate('local.settle', { id: checkoutId, outcome: 'pay' })
    expect(refused).toMatchObject({ status: 409, error: { appCode: 'ALREADY_SUBSCRIBED' } })

    await closeOverdueProviderCheckouts(db())
    expect(await orderRow(canceled?.id ?? '')).toMatchObject({ status: 'canceled' })
    expect(await localStatus(checkoutId)).toBe('canceled')
    const overview = await query<{ details: { subscription: { planId: string } } }>('overview')
    expect(overview.data?.details.subscription.planId, 'one subscription, still Pro').toBe('pro')
  })
})
