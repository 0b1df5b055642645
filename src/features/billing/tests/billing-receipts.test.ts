// Every charge has a receipt the customer can open: the first payment, a plan change and a seat change alike, with
// the built-in provider (whose receipt is Hatch's own). Only people who may read the organization's billing open it;
// anyone else gets the answer an order that does not exist gets.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { billingOrders } from '#/server/db/schema'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'

interface Preview {
  amountDue: number
  prorationDate: Date
}

interface OrderRow {
  id: string
  kind: string
  status: string
  amount: number
  paidAt: Date | null
}

interface OpenedReceipt {
  redirectUrl: string | null
  receipt: {
    orderId: string
    kind: string
    planId: string
    seats: number
    amount: number
    currency: string
    organizationName: string
    seller: string
    status: string
    paidAt: Date
    test: boolean
  } | null
}

describe.each(engines)('receipts on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let olga: Person
  let max: Person
  let nora: Person
  let orgId: string
  const db = () => database.connection.db

  const openReceipt = (person: Person | undefined, orderId: string) =>
    h.trpc<OpenedReceipt>('query', 'billing.receipt.open', person?.cookie, { orderId })

  /** Previews a change as the dialog does, then confirms it with the previewed instant and amount. */
  const confirmedChange = async (kind: 'Change' | 'Seats', input: Record<string, unknown>) => {
    const preview = await h.trpc<Preview>('query', `billing.preview${kind}`, olga.cookie, input)
    expect(preview.error, 'previewed').toBeUndefined()
    const done = await h.trpc(
      'mutation',
      kind === 'Change' ? 'billing.changePlan' : 'billing.changeSeats',
      olga.cookie,
      {
        ...input,
        prorationDate: preview.data?.prorationDate,
        expectedAmountDue: preview.data?.amountDue,
      },
    )
    expect(done.error, 'confirmed').toBeUndefined()
    return preview.data?.amountDue ?? -1
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Receipts')
    max = await h.signUp('Max Member')
    nora = await h.signUp('Nora Elsewhere')
    orgId = (await h.activeOrganizationOf(olga)) ?? ''
    await h.join(orgId, olga, max, 'member')
  })

  afterAll(async () => {
    await database?.dispose()
  })

  it('gives the first payment, a plan change and a seat change each a receipt with its own amount', async () => {
    const start = await h.trpc<{ orderId: string; url: string }>('mutation', 'billing.startCheckout', olga.cookie, {
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
    })
    expect(start.error).toBeUndefined()
    const checkoutId = start.data?.url.split('/').pop() ?? ''
    // Before it is paid, an order has no receipt.
    expect((await openReceipt(olga, start.data?.orderId ?? '')).status).toBe(404)
    await h.trpc('mutation', 'billing.local.settle', olga.cookie, { id: checkoutId, outcome: 'pay' })

    const toTeam = await confirmedChange('Change', { planId: 'team', interval: 'monthly', seats: 2 })
    const toFiveSeats = await confirmedChange('Seats', { seats: 5 })
    // Pro → Team with two seats charges about $79, three more seats about $147: real charges, not zero.
    expect(toTeam).toBeGreaterThan(7800)
    expect(toFiveSeats).toBeGreaterThan(14600)

    const page = await h.trpc<{ items: OrderRow[] }>('query', 'billing.orders', olga.cookie, { page: 1, limit: 10 })
    const orders = page.data?.items ?? []
    expect(orders.map((order) => [order.kind, order.status, order.amount])).toEqual([
      ['change', 'paid', toFiveSeats],
      ['change', 'paid', toTeam],
      ['checkout', 'paid', 1900],
    ])

    for (const order of orders) {
      const opened = await openReceipt(olga, order.id)
      expect(opened.status, `the receipt of the ${order.kind} order opens`).toBe(200)
      // The built-in provider has no receipt page of its own: Hatch's receipt is it.
      expect(opened.data?.redirectUrl).toBeNull()
      expect(opened.data?.receipt).toMatchObject({
        orderId: order.id,
        kind: order.kind,
        amount: order.amount,
        currency: 'USD',
        status: 'paid',
        organizationName: expect.stringContaining('Olga Receipts'),
        seller: expect.any(String),
        test: true,
      })
      expect(opened.data?.receipt?.paidAt).toBeInstanceOf(Date)
    }
    const [fiveSeats] = orders
    expect((await openReceipt(olga, fiveSeats?.id ?? '')).data?.receipt).toMatchObject({ planId: 'team', seats: 5 })
  })

  it('opens a receipt to nobody outside the organization, nor to a member who may not read its billing', async () => {
    const page = await h.trpc<{ items: OrderRow[] }>('query', 'billing.orders', olga.cookie, { page: 1, limit: 10 })
    const orderId = page.data?.items[0]?.id ?? ''
    expect(orderId).not.toBe('')

    const anonymous = await openReceipt(undefined, orderId)
    expect(anonymous.status).toBe(401)
    for (const [who, person] of [
      ['someone of another organization', nora],
      ['a member without billing:read', max],
    ] as const) {
      const refused = await openReceipt(person, orderId)
      // The same answer as for a number that does not exist: nothing says the order is there.
      const missing = await openReceipt(person, '00000000-0000-4000-8000-000000000000')
      expect(refused.status, who).toBe(404)
      expect(refused.error?.appCode, who).toBe('RECEIPT_NOT_FOUND')
      expect(refused.error, who).toEqual(missing.error)
      expect(JSON.stringify(refused), who).not.toContain('Olga')
      expect(refused.data, who).toBeUndefined()
    }
  })
  it('sends the customer to the receipt link a provider gave with the payment (Stripe’s hosted invoice)', async () => {
    // An order paid through Stripe before the organization moved to the built-in provider: its link is what remains.
    const orderId = randomUUID()
    const hostedInvoice = 'https://invoice.stripe.com/i/acct_hatch/test_receipt'
    await db().insert(billingOrders).values({
      id: orderId,
      organizationId: orgId,
      provider: 'stripe',
      kind: 'renewal',
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
      amount: 1900,
      status: 'paid',
      paidAt: new Date(),
      providerInvoiceId: 'in_hatch_receipt',
      receiptUrl: hostedInvoice,
    })
    const opened = await openReceipt(olga, orderId)
    expect(opened.data).toEqual({ redirectUrl: hostedInvoice, receipt: null })
    expect((await openReceipt(nora, orderId)).status, 'nor is the link given to anyone else').toBe(404)
  })
})
