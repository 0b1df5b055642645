import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aiUsage, billingEvents, billingOrders, billingSubscriptions, localPaymentObjects } from '#/server/db/schema'
import { PlanLimitError, recordAiRequest } from '#/server/plan-limits'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import type { LocalPaymentProvider, PaymentProvider, SignedDelivery } from '../server'
import { localPaymentProvider } from '../server'
import { receiveEvent, reconcileSubscriptions, replayEvent } from '../server/ledger'
import { closeOverdueLocalCheckouts } from '../server/local-checkout-router'
import { reconcileBilling, replayBillingEvent } from '../server/operator-tasks'
import { handleBillingWebhook } from '../server/webhook'

/** What billing.previewChange answers (and the change answers, with the plan it made). */
interface Preview {
  planId: string
  interval: string
  seats: number
  blockers: { limit: string; used: number; allowed: number }[]
  credit: number
  charge: number
  amountDue: number
  creditLeft: number
  newAmount: number
  periodStart: Date
  periodEnd: Date
  prorationDate: Date
}

interface Overview {
  planId: string
  canRead: boolean
  canManage: boolean
  limits: Record<'members' | 'aiRequests', { used: number; limit: number | null }>
  details: {
    subscription: { planId: string; seats: number; status: string; cancelAtPeriodEnd: boolean } | null
    usage: { members: { used: number; invited: number } }
  } | null
}
interface OrderPage {
  items: OrderRow[]
  total: number
  unfinished: OrderRow[]
  anyProcessing: boolean
}

interface OrderRow {
  id: string
  status: string
  amount: number
  amountRefunded: number
  planId: string
  currency: string
  resumeUrl: string | null
  processing: boolean
  expiresAt: Date | null
}

describe.each(engines)('billing on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let olga: Person
  let max: Person
  let nora: Person
  let orgId: string
  let local: LocalPaymentProvider
  const db = () => database.connection.db

  const query = <T>(path: string, person: Person, input?: unknown) =>
    h.trpc<T>('query', `billing.${path}`, person.cookie, input)
  const mutate = <T>(path: string, person: Person, input?: unknown) =>
    h.trpc<T>('mutation', `billing.${path}`, person.cookie, input)
  const deliver = (delivery: SignedDelivery) => handleBillingWebhook(db(), 'local', delivery.body, delivery.headers)
  const orderOf = async (id: string) => (await db().select().from(billingOrders).where(eq(billingOrders.id, id)))[0]
  const overview = async (person: Person) => {
    const answer = await query<Overview>('overview', person)
    expect(answer.error, 'the overview answers').toBeUndefined()
    return answer.data as Overview
  }
  /** Olga starts a checkout and returns the order and the local checkout id. */
  const startCheckout = async (input: Record<string, unknown>) => {
    const answer = await mutate<{ orderId: string; url: string }>('startCheckout', olga, input)
    expect(answer.error, 'checkout starts').toBeUndefined()
    const url = answer.data?.url ?? ''
    return { orderId: answer.data?.orderId ?? '', checkoutId: url.slice(url.lastIndexOf('/') + 1), url }
  }
  const subscriptionRow = async () =>
    (await db().select().from(billingSubscriptions).where(eq(billingSubscriptions.organizationId, orgId)))[0]

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Billing')
    max = await h.signUp('Max Billing')
    nora = await h.signUp('Nora Elsewhere')
    orgId = (await h.activeOrganizationOf(olga)) ?? ''
    await h.join(orgId, olga, max, 'member')
    local = localPaymentProvider(db())
  })

  afterAll(async () => {
    await database?.dispose()
  })

  it('shows members the plan name only, and lets only owners start a checkout', async () => {
    const seen = await overview(max)
    expect(seen).toMatchObject({ planId: 'free', canRead: false, canManage: false, details: null })
    expect(seen.limits.members.limit, 'what the plan allows, shown to every member').toBe(3)
    const orders = await query('orders', max)
    expect(orders.status).toBe(403)
    const checkout = await mutate('startCheckout', max, { planId: 'pro', interval: 'monthly', currency: 'USD' })
    expect(checkout.error?.appCode).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
    const bad = await mutate('startCheckout', olga, { planId: 'free', interval: 'weekly', currency: 'EUR' })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.error?.fieldErrors ?? {}).sort()).toEqual(['currency', 'interval', 'planId'])
    expect(await db().select().from(billingOrders)).toHaveLength(0)
  })

  it('refuses a webhook with a bad signature and writes nothing', async () => {
    const genuine = local.sign('checkout.completed', new Date(), [{ type: 'payment.failed', orderId: 'nope' }])
    const tampered = await deliver({ body: genuine.body.replace('nope', 'nah'), headers: genuine.headers })
    expect(tampered.status).toBe(400)
    const unsigned = await handleBillingWebhook(db(), 'local', genuine.body, new Headers())
    expect(unsigned.status).toBe(400)
    const otherProvider = await handleBillingWebhook(db(), 'stripe', genuine.body, genuine.headers)
    expect(otherProvider.status).toBe(404)
    expect(await db().select().from(billingEvents)).toHaveLength(0)
  })

  it('refuses to complete a checkout once its buyer may no longer manage billing; cancelling stays theirs', async () => {
    const paula = await h.signUp('Paula Payer')
    const quinn = await h.signUp('Quinn Heir')
    const workspace = (await h.activeOrganizationOf(paula)) ?? ''
    await h.join(workspace, paula, quinn, 'member')
    const started = await mutate<{ orderId: string; url: string }>('startCheckout', paula, {
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
    })
    expect(started.error, 'Paula, the owner, starts a checkout').toBeUndefined()
    const checkoutId = started.data?.url.slice(started.data.url.lastIndexOf('/') + 1) ?? ''
    // Paula hands the workspace to Quinn and stays on as an admin, who may read billing but not manage it.
    const quinnMemberId = (await h.membership(workspace, quinn.id))?.id
    const handed = await h.trpc('mutation', 'organizations.transferOwnership', paula.cookie, {
      memberId: quinnMemberId,
    })
    expect(handed.error, 'ownership passes to Quinn').toBeUndefined()
    for (const outcome of ['pay', 'pay_later', 'fail'] as const) {
      const refused = await mutate('local.settle', paula, { id: checkoutId, outcome })
      expect([refused.status, refused.error?.appCode], outcome).toEqual([403, 'NOT_ALLOWED_TO_ACCESS_RESOURCE'])
    }
    expect((await orderOf(started.data?.orderId ?? ''))?.status, 'nothing was paid').toBe('pending')
    expect(
      (await db().select().from(billingSubscriptions).where(eq(billingSubscriptions.organizationId, workspace))).length,
    ).toBe(0)
    const cancelled = await mutate('local.settle', paula, { id: checkoutId, outcome: 'cancel' })
    expect(cancelled.error).toBeUndefined()
  })

  it('pays for Pro through the local checkout: the order is paid, the plan is Pro', async () => {
    const { orderId, checkoutId, url } = await startCheckout({
      planId: 'pro',
      interval: 'monthly',
      currency: 'CNY',
      locale: 'zh',
    })
    expect(url).toMatch(/\/zh\/pay\/lcs_/)
    expect((await orderOf(orderId))?.status).toBe('pending')
    // Only its buyer sees the checkout page.
    expect((await query('local.get', nora, { id: checkoutId })).error?.appCode).toBe('CHECKOUT_NOT_FOUND')
    const shown = await query<{ amount: number; currency: string }>('local.get', olga, { id: checkoutId })
    expect(shown.data).toMatchObject({ amount: 12900, currency: 'CNY' })
    const paid = await mutate<{ redirectUrl: string }>('local.settle', olga, { id: checkoutId, outcome: 'pay' })
    expect(paid.data?.redirectUrl).toContain(`/zh/my-orders?order=${orderId}`)
    expect(await orderOf(orderId)).toMatchObject({ status: 'paid', amount: 12900, currency: 'CNY' })
    expect((await overview(olga)).details?.subscription).toMatchObject({ planId: 'pro', status: 'active' })
    // A closed checkout cannot be paid twice.
    const again = await mutate('local.settle', olga, { id: checkoutId, outcome: 'pay' })
    expect(again.error?.appCode).toBe('CHECKOUT_CLOSED')
    // And a second subscription is refused: the plan is changed instead.
    const second = await mutate('startCheckout', olga, { planId: 'team', interval: 'monthly', currency: 'USD' })
    expect(second.error?.appCode).toBe('ALREADY_SUBSCRIBED')
  })

  it('acknowledges a duplicate event and applies it once', async () => {
    const [order] = await db().select().from(billingOrders).where(eq(billingOrders.organizationId, orgId))
    const refund = local.sign('payment.refunded', new Date(), [
      { type: 'payment.refunded', orderId: order?.id, amountRefunded: 2900 },
    ])
    const first = await deliver(refund)
    expect(await first.json()).toEqual({ received: true, duplicate: false })
    const second = await deliver(refund)
    expect(await second.json()).toEqual({ received: true, duplicate: true })
    expect(await orderOf(order?.id ?? '')).toMatchObject({ status: 'partially_refunded', amountRefunded: 2900 })
  })

  it('converges whatever order refunds and late checkout events arrive in', async () => {
    const [order] = await db().select().from(billingOrders).where(eq(billingOrders.organizationId, orgId))
    const id = order?.id ?? ''
    const full = local.sign('payment.refunded', new Date(), [
      { type: 'payment.refunded', orderId: id, amountRefunded: 12900 },
    ])
    const olderPartial = local.sign('payment.refunded', new Date(Date.now() - 60_000), [
      { type: 'payment.refunded', orderId: id, amountRefunded: 1000 },
    ])
    const lateExpiry = local.sign('checkout.expired', new Date(Date.now() - 120_000), [
      { type: 'checkout.expired', orderId: id, checkoutId: order?.providerCheckoutId ?? '' },
    ])
    const lateCompletion = local.sign('checkout.completed', new Date(Date.now() - 120_000), [
      { type: 'checkout.completed', orderId: id, checkoutId: order?.providerCheckoutId ?? '', paid: true },
    ])
    for (const delivery of [full, olderPartial, lateExpiry, lateCompletion])
      expect((await deliver(delivery)).status).toBe(200)
    expect(await orderOf(id)).toMatchObject({ status: 'refunded', amountRefunded: 12900 })
  })

  it('takes the subscription from the provider, so an older "changed" event cannot undo a newer state', async () => {
    const row = await subscriptionRow()
    const subscriptionId = row?.providerSubscriptionId ?? ''
    const older = local.subscriptionChanged(subscriptionId)
    // The owner cancels at period end (newer), then the older event arrives.
    const canceled = await mutate('setCancelAtPeriodEnd', olga, { cancelAtPeriodEnd: true })
    expect(canceled.error).toBeUndefined()
    expect((await deliver(older)).status).toBe(200)
    expect((await subscriptionRow())?.cancelAtPeriodEnd).toBe(true)
    const resumed = await mutate('setCancelAtPeriodEnd', olga, { cancelAtPeriodEnd: false })
    expect(resumed.error).toBeUndefined()
    expect((await subscriptionRow())?.cancelAtPeriodEnd).toBe(false)
  })

  it('leaves an event unprocessed when applying it fails part-way, and the retry completes it', async () => {
    const row = await subscriptionRow()
    let failuresLeft = 1
    const flaky: PaymentProvider = Object.assign(Object.create(Object.getPrototypeOf(local)), local, {
      retrieveSubscription: async (id: string) => {
        if (failuresLeft-- > 0) throw new Error('provider unreachable')
        return local.retrieveSubscription(id)
      },
    })
    const delivery = local.subscriptionChanged(row?.providerSubscriptionId ?? '')
    const verified = await local.verifyEvent(delivery.body, delivery.headers)
    await expect(receiveEvent(db(), flaky, verified)).rejects.toThrow('provider unreachable')
    const [stored] = await db().select().from(billingEvents).where(eq(billingEvents.id, verified.id))
    expect(stored).toMatchObject({ processedAt: null, attempts: 1 })
    expect(stored?.lastError).toContain('provider unreachable')
    expect(await receiveEvent(db(), flaky, verified)).toEqual({ outcome: 'applied' })
    const [retried] = await db().select().from(billingEvents).where(eq(billingEvents.id, verified.id))
    expect(retried?.processedAt).toBeInstanceOf(Date)
  })

  it('replays a stored event and reconciles drift from the provider', async () => {
    const row = await subscriptionRow()
    const subscriptionId = row?.providerSubscriptionId ?? ''
    // The provider's record changes without an event reaching us (a lost webhook).
    const [object] = await db().select().from(localPaymentObjects).where(eq(localPaymentObjects.id, subscriptionId))
    await db()
      .update(localPaymentObjects)
      .set({ data: { ...(object?.data as object), cancelAtPeriodEnd: true } })
      .where(eq(localPaymentObjects.id, subscriptionId))
    expect(await reconcileSubscriptions(db(), local)).toEqual([subscriptionId])
    expect((await subscriptionRow())?.cancelAtPeriodEnd).toBe(true)
    expect(await reconcileSubscriptions(db(), local), 'nothing drifts twice').toEqual([])
    // A replay re-applies the stored event, even though it was processed.
    await db()
      .update(billingSubscriptions)
      .set({ cancelAtPeriodEnd: false })
      .where(eq(billingSubscriptions.providerSubscriptionId, subscriptionId))
    const [event] = await db()
      .select()
      .from(billingEvents)
      .where(and(eq(billingEvents.provider, 'local'), eq(billingEvents.type, 'subscription.changed')))
    expect(await replayEvent(db(), local, event?.id ?? '')).toBe(true)
    expect((await subscriptionRow())?.cancelAtPeriodEnd).toBe(true)
    expect(await replayEvent(db(), local, 'levt_unknown')).toBe(false)
  })

  it('offers replay and reconcile as operator commands (npm run billing)', async () => {
    const row = await subscriptionRow()
    const subscriptionId = row?.providerSubscriptionId ?? ''
    const [object] = await db().select().from(localPaymentObjects).where(eq(localPaymentObjects.id, subscriptionId))
    await db()
      .update(localPaymentObjects)
      .set({ data: { ...(object?.data as object), cancelAtPeriodEnd: false, amount: 13900 } })
      .where(eq(localPaymentObjects.id, subscriptionId))
    expect(await reconcileBilling(db())).toEqual({ provider: 'local', drifted: [subscriptionId] })
    expect(await subscriptionRow()).toMatchObject({ cancelAtPeriodEnd: false, amount: 13900 })
    const [event] = await db().select().from(billingEvents).where(eq(billingEvents.type, 'payment.refunded'))
    expect(await replayBillingEvent(db(), event?.id ?? '')).toEqual({
      replayed: true,
      provider: 'local',
      type: 'payment.refunded',
    })
    expect(await replayBillingEvent(db(), 'levt_unknown')).toEqual({ replayed: false })
  })

  it('keeps a Team organization to its seats and lets the owner change them', async () => {
    const owner = await h.signUp('Tess Team')
    const teamOrg = (await h.activeOrganizationOf(owner)) ?? ''
    const start = await h.trpc<{ url: string; orderId: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      planId: 'team',
      interval: 'yearly',
      currency: 'USD',
      seats: 2,
    })
    expect(start.error).toBeUndefined()
    const checkoutId = start.data?.url.split('/').pop() ?? ''
    await h.trpc('mutation', 'billing.local.settle', owner.cookie, { id: checkoutId, outcome: 'pay' })
    const [order] = await db()
      .select()
      .from(billingOrders)
      .where(eq(billingOrders.id, start.data?.orderId ?? ''))
    expect(order).toMatchObject({ status: 'paid', seats: 2, amount: 49000 * 2 })
    const first = await h.call('/organization/invite-member', {
      cookie: owner.cookie,
      body: { email: 'seat.one@example.com', role: 'member', organizationId: teamOrg },
    })
    expect(first.status).toBe(200)
    const second = await h.call('/organization/invite-member', {
      cookie: owner.cookie,
      body: { email: 'seat.two@example.com', role: 'member', organizationId: teamOrg },
    })
    expect(second.status).toBe(403)
    expect(second.code).toBe('PLAN_LIMIT_MEMBERS')
    const tooFew = await h.trpc('mutation', 'billing.changeSeats', owner.cookie, {
      seats: 1,
      prorationDate: new Date(),
      expectedAmountDue: 0,
    })
    expect(tooFew.status).toBe(400)
    const more = await confirmedChange(owner, 'Seats', { seats: 3 })
    expect(more.seats).toBe(3)
    const third = await h.call('/organization/invite-member', {
      cookie: owner.cookie,
      body: { email: 'seat.two@example.com', role: 'member', organizationId: teamOrg },
    })
    expect(third.status).toBe(200)
    const [subscription] = await db()
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.organizationId, teamOrg))
    expect(subscription).toMatchObject({ planId: 'team', seats: 3, amount: 49000 * 3 })
  })

  /** Previews a change as the dialog does, then confirms it with the previewed instant and amount. */
  const confirmedChange = async (person: Person, kind: 'Change' | 'Seats', input: Record<string, unknown>) => {
    const preview = await h.trpc<Preview>('query', `billing.preview${kind}`, person.cookie, input)
    expect(preview.error, 'previewed').toBeUndefined()
    const confirmation = { prorationDate: preview.data?.prorationDate, expectedAmountDue: preview.data?.amountDue }
    const done = await h.trpc<Preview & { seats: number }>(
      'mutation',
      kind === 'Change' ? 'billing.changePlan' : 'billing.changeSeats',
      person.cookie,
      { ...input, ...confirmation },
    )
    expect(done.error, 'confirmed').toBeUndefined()
    return { ...(done.data as Preview & { seats: number }), preview: preview.data as Preview }
  }

  /** An organization that paid for `planId` through the local checkout. */
  const paidThroughCheckout = async (
    name: string,
    planId: 'pro' | 'team',
    interval: 'monthly' | 'yearly',
    seats?: number,
  ) => {
    const owner = await h.signUp(name)
    const organizationId = (await h.activeOrganizationOf(owner)) ?? ''
    const start = await h.trpc<{ url: string; orderId: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      planId,
      interval,
      currency: 'USD',
      seats,
    })
    expect(start.error).toBeUndefined()
    const checkoutId = start.data?.url.split('/').pop() ?? ''
    await h.trpc('mutation', 'billing.local.settle', owner.cookie, { id: checkoutId, outcome: 'pay' })
    return { owner, organizationId }
  }

  it('shows what Pro yearly → Team monthly costs before making it, records it as an order, and renews monthly', async () => {
    const { owner, organizationId } = await paidThroughCheckout('Paula Planchange', 'pro', 'yearly')
    const preview = await h.trpc<Preview>('query', 'billing.previewChange', owner.cookie, {
      planId: 'team',
      interval: 'monthly',
    })
    const expectedRenewal = new Date(preview.data?.prorationDate ?? 0)
    expectedRenewal.setUTCMonth(expectedRenewal.getUTCMonth() + 1)
    expect(preview.data).toMatchObject({
      planId: 'team',
      interval: 'monthly',
      seats: 2,
      newAmount: 2 * 4900,
      charge: 2 * 4900,
      amountDue: 0,
      blockers: [],
    })
    // Nearly the whole year is unused: its credit pays the first month and the rest stays for later.
    expect(preview.data?.credit).toBeGreaterThan(18900)
    expect(preview.data?.creditLeft).toBe((preview.data?.credit ?? 0) - 2 * 4900)
    expect(preview.data?.periodEnd, 'a monthly plan renews in a month').toEqual(expectedRenewal)
    const [before] = await db()
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.organizationId, organizationId))
    expect(before, 'a preview changes nothing').toMatchObject({ planId: 'pro', interval: 'yearly' })

    const done = await confirmedChange(owner, 'Change', { planId: 'team', interval: 'monthly' })
    expect(done).toMatchObject({ planId: 'team', interval: 'monthly', seats: 2, amountDue: 0 })
    const [after] = await db()
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.organizationId, organizationId))
    expect(after).toMatchObject({ planId: 'team', interval: 'monthly', seats: 2, amount: 2 * 4900 })
    expect(after?.currentPeriodEnd).toEqual(done.periodEnd)
    const orders = await db()
      .select()
      .from(billingOrders)
      .where(eq(billingOrders.organizationId, organizationId))
      .orderBy(billingOrders.createdAt)
    expect(orders.map((order) => [order.kind, order.planId, order.interval, order.status])).toEqual([
      ['checkout', 'pro', 'yearly', 'paid'],
      ['change', 'team', 'monthly', 'paid'],
    ])
    expect(orders[1]).toMatchObject({ amount: 0, periodEnd: done.periodEnd })

    // Back to Pro yearly: the credit left over is spent first.
    const back = await confirmedChange(owner, 'Change', { planId: 'pro', interval: 'yearly' })
    expect(back.amountDue).toBe(Math.max(0, back.charge - back.credit - (done.creditLeft ?? 0)))
  })

  it('refuses a confirmation that no longer matches the price, or is old, and changes nothing', async () => {
    const { owner, organizationId } = await paidThroughCheckout('Stan Stale', 'pro', 'monthly')
    const preview = await h.trpc<Preview>('query', 'billing.previewChange', owner.cookie, {
      planId: 'pro',
      interval: 'yearly',
    })
    const wrongAmount = await h.trpc('mutation', 'billing.changePlan', owner.cookie, {
      planId: 'pro',
      interval: 'yearly',
      prorationDate: preview.data?.prorationDate,
      expectedAmountDue: (preview.data?.amountDue ?? 0) + 1,
    })
    expect(wrongAmount).toMatchObject({ status: 409, error: { appCode: 'PLAN_CHANGE_STALE' } })
    const old = await h.trpc('mutation', 'billing.changePlan', owner.cookie, {
      planId: 'pro',
      interval: 'yearly',
      prorationDate: new Date(Date.now() - 2 * 60 * 60 * 1000),
      expectedAmountDue: preview.data?.amountDue,
    })
    expect(old).toMatchObject({ status: 409, error: { appCode: 'PLAN_CHANGE_STALE' } })
    const unchanged = await h.trpc('query', 'billing.previewChange', owner.cookie, {
      planId: 'pro',
      interval: 'monthly',
    })
    expect(unchanged).toMatchObject({ status: 400, error: { appCode: 'PLAN_UNCHANGED' } })
    const seatsOnPro = await h.trpc('query', 'billing.previewSeats', owner.cookie, { seats: 3 })
    expect(seatsOnPro).toMatchObject({ status: 400, error: { appCode: 'PLAN_HAS_NO_SEATS' } })
    const [subscription] = await db()
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.organizationId, organizationId))
    expect(subscription).toMatchObject({ planId: 'pro', interval: 'monthly' })
    const kinds = await db()
      .select({ kind: billingOrders.kind })
      .from(billingOrders)
      .where(eq(billingOrders.organizationId, organizationId))
    expect(kinds.map((row) => row.kind)).toEqual(['checkout'])
  })

  it('says which limit a smaller plan would break, and refuses it until that is resolved', async () => {
    const { owner, organizationId } = await paidThroughCheckout('Tina Toomany', 'team', 'monthly', 4)
    for (const email of ['tina.one@example.com', 'tina.two@example.com', 'tina.three@example.com']) {
      await h.invite(owner, organizationId, email)
    }
    // Four places taken (the owner and three invitations) on a Team of four seats.
    const fewer = await h.trpc<Preview>('query', 'billing.previewSeats', owner.cookie, { seats: 3 })
    expect(fewer.data?.blockers).toEqual([{ limit: 'members', used: 4, allowed: 3 }])
    const refused = await h.trpc('mutation', 'billing.changeSeats', owner.cookie, {
      seats: 3,
      prorationDate: fewer.data?.prorationDate,
      expectedAmountDue: fewer.data?.amountDue,
    })
    expect(refused).toMatchObject({ status: 400, error: { appCode: 'SEATS_BELOW_MEMBERS' } })
    const [subscription] = await db()
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.organizationId, organizationId))
    expect(subscription?.seats).toBe(4)
  })

  it('refuses to delete an organization, or the account alone in it, while its subscription renews', async () => {
    const owner = await h.signUp('Della Deleter')
    const org = (await h.activeOrganizationOf(owner)) ?? ''
    await h.givePlan(org, 'pro')
    const deleted = await h.call('/organization/delete', { cookie: owner.cookie, body: { organizationId: org } })
    expect(deleted.status).toBe(400)
    expect(deleted.code).toBe('ORGANIZATION_HAS_SUBSCRIPTION')
    const account = await h.call('/delete-user', { cookie: owner.cookie, body: { password: 'engine1843' } })
    expect(account.code).toBe('ORGANIZATION_HAS_SUBSCRIPTION')
    // Nor may an app admin (Olga signed up first) delete the account with it.
    const removed = await h.trpc('mutation', 'users.remove', olga.cookie, { userId: owner.id })
    expect(removed.error?.appCode).toBe('ORGANIZATION_HAS_SUBSCRIPTION')
    expect(await h.activeOrganizationOf(owner)).toBe(org)
    // Cancelled at period end, the organization may go: the provider stops charging when the period ends.
    await db()
      .update(billingSubscriptions)
      .set({ cancelAtPeriodEnd: true })
      .where(eq(billingSubscriptions.organizationId, org))
    const again = await h.call('/organization/delete', { cookie: owner.cookie, body: { organizationId: org } })
    expect(again.status).toBe(200)
  })

  it('settles "pay later" only when the payment event arrives', async () => {
    const owner = await h.signUp('Lena Later')
    const start = await h.trpc<{ url: string; orderId: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
    })
    const checkoutId = start.data?.url.split('/').pop() ?? ''
    await h.trpc('mutation', 'billing.local.settle', owner.cookie, { id: checkoutId, outcome: 'pay_later' })
    const orderId = start.data?.orderId ?? ''
    expect((await orderOf(orderId))?.status, 'the redirect alone proves nothing').toBe('pending')
    expect((await h.trpc<Overview>('query', 'billing.overview', owner.cookie)).data?.planId).toBe('free')
    for (const delivery of await local.settleLater(checkoutId)) expect((await deliver(delivery)).status).toBe(200)
    expect((await orderOf(orderId))?.status).toBe('paid')
    expect((await h.trpc<Overview>('query', 'billing.overview', owner.cookie)).data?.planId).toBe('pro')
  })

  it('offers an unfinished checkout to resume until it expires; then it is Expired and can no longer be paid', async () => {
    const owner = await h.signUp('Una Unfinished')
    const start = await h.trpc<{ url: string; orderId: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
    })
    const orderId = start.data?.orderId ?? ''
    const listed = async () =>
      (await h.trpc<OrderPage>('query', 'billing.orders', owner.cookie)).data?.items.find(
        (order) => order.id === orderId,
      )
    const open = await listed()
    expect(open).toMatchObject({ status: 'pending', resumeUrl: start.data?.url, processing: false })
    const page = (await h.trpc<OrderPage>('query', 'billing.orders', owner.cookie)).data
    expect(
      page?.unfinished.map((order) => order.id),
      'offered to resume on every page',
    ).toEqual([orderId])
    const hours = ((open?.expiresAt?.getTime() ?? 0) - Date.now()) / 3_600_000
    expect(hours, 'open for a day, as Stripe keeps a session').toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(24)

    await closeOverdueLocalCheckouts(db())
    expect(await listed(), 'not overdue yet').toMatchObject({ status: 'pending' })
    const dayLater = new Date(Date.now() + 25 * 3_600_000)
    // Other tests' open checkouts expire with it: this organization's is the one looked at.
    expect(await closeOverdueLocalCheckouts(db(), dayLater)).toBeGreaterThanOrEqual(1)
    expect(await listed()).toMatchObject({ status: 'expired', resumeUrl: null, processing: false })
    const checkoutId = start.data?.url.split('/').pop() ?? ''
    const paid = await h.trpc('mutation', 'billing.local.settle', owner.cookie, { id: checkoutId, outcome: 'pay' })
    expect(paid).toMatchObject({ status: 409, error: { appCode: 'CHECKOUT_EXPIRED' } })
    expect((await h.trpc<Overview>('query', 'billing.overview', owner.cookie)).data?.planId).toBe('free')
    expect(await closeOverdueLocalCheckouts(db(), dayLater), 'closed once').toBe(0)
  })

  it('settles a "pay later" checkout whose settling a restart lost, on the next maintenance run', async () => {
    const owner = await h.signUp('Rita Restart')
    const start = await h.trpc<{ url: string; orderId: string }>('mutation', 'billing.startCheckout', owner.cookie, {
      planId: 'pro',
      interval: 'monthly',
      currency: 'USD',
    })
    // What the settle procedure does, minus the timer a restart would lose.
    const checkout = await local.getCheckout(start.data?.url.split('/').pop() ?? '')
    if (!checkout) throw new Error('no checkout')
    const { deliveries } = await local.settleCheckout(checkout, 'pay_later')
    for (const delivery of deliveries) expect((await deliver(delivery)).status).toBe(200)
    const orderId = start.data?.orderId ?? ''
    const listed = async () =>
      (await h.trpc<OrderPage>('query', 'billing.orders', owner.cookie)).data?.items.find(
        (order) => order.id === orderId,
      )
    expect(await listed()).toMatchObject({ status: 'pending', processing: true, resumeUrl: null })
    expect((await h.trpc<OrderPage>('query', 'billing.orders', owner.cookie)).data).toMatchObject({
      anyProcessing: true,
      unfinished: [],
    })
    expect(await closeOverdueLocalCheckouts(db(), new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1)
    expect(await listed()).toMatchObject({ status: 'paid', processing: false })
    expect((await h.trpc<Overview>('query', 'billing.overview', owner.cookie)).data?.planId).toBe('pro')
  })

  it('marks a failed or canceled checkout, and shows nobody another organization’s orders', async () => {
    const owner = await h.signUp('Fay Fails')
    for (const outcome of ['fail', 'cancel'] as const) {
      const start = await h.trpc<{ url: string; orderId: string }>('mutation', 'billing.startCheckout', owner.cookie, {
        planId: 'pro',
        interval: 'monthly',
        currency: 'USD',
      })
      const checkoutId = start.data?.url.split('/').pop() ?? ''
      const settled = await h.trpc<{ redirectUrl: string }>('mutation', 'billing.local.settle', owner.cookie, {
        id: checkoutId,
        outcome,
      })
      expect(settled.data?.redirectUrl).toContain(`checkout=${outcome === 'fail' ? 'failed' : 'canceled'}#pricing`)
      expect((await orderOf(start.data?.orderId ?? ''))?.status).toBe(outcome === 'fail' ? 'failed' : 'canceled')
    }
    const own = await h.trpc<OrderPage>('query', 'billing.orders', owner.cookie)
    expect(own.data?.items.map((order) => order.status).sort()).toEqual(['canceled', 'failed'])
    expect(own.data?.total).toBe(2)
    // A page at a time, newest first: the second page of one holds the first order.
    const second = await h.trpc<OrderPage>('query', 'billing.orders', owner.cookie, { page: 2, limit: 1 })
    expect(second.data).toMatchObject({ total: 2, items: [{ status: 'failed' }] })
    const past = await h.trpc<OrderPage>('query', 'billing.orders', owner.cookie, { page: 3, limit: 1 })
    expect(past.data).toMatchObject({ total: 2, items: [] })
    const refused = await h.trpc<OrderPage>('query', 'billing.orders', owner.cookie, { page: 0, limit: 1000 })
    expect(refused).toMatchObject({ status: 400 })
    const others = await h.trpc<OrderPage>('query', 'billing.orders', nora.cookie)
    expect(others.data).toMatchObject({ items: [], total: 0 })
  })

  it('counts AI requests against the month’s allowance', async () => {
    const month = new Date().toISOString().slice(0, 7)
    const owner = await h.signUp('Ari Assistant')
    const org = (await h.activeOrganizationOf(owner)) ?? ''
    expect(await recordAiRequest(db(), org)).toBe(1)
    await db().update(aiUsage).set({ requests: 999 }).where(eq(aiUsage.organizationId, org))
    expect(await recordAiRequest(db(), org)).toBe(1000)
    await expect(recordAiRequest(db(), org)).rejects.toBeInstanceOf(PlanLimitError)
    const [usage] = await db()
      .select()
      .from(aiUsage)
      .where(and(eq(aiUsage.organizationId, org), eq(aiUsage.month, month)))
    expect(usage?.requests, 'a refused request is not counted').toBe(1000)
  })
})
