// Outgoing webhooks end to end: endpoints saved through the procedures, events from members and billing sent
// by the job queue to a receiver started here that verifies each signature with the standardwebhooks package, a
// failing receiver retried and then switched off (with the email to the owners), "send again", and who may do what.
// The order of an endpoint's events has its own file (webhook-order.test.ts).

import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { installedApps } from '#/apps'
import { emailOutbox, webhookAttempts, webhookDeliveries, webhookEndpoints } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import type { OrganizationHarness, Person } from '../../../../tests/integration/organization-fixtures'
import { engines } from '../../../../tests/integration/test-databases'
import { webhookEventTypes } from '../event-types'
import { until, webhookBench } from './webhook-bench'
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver'

interface Endpoint {
  id: string
  enabled: boolean
  disabledReason: string | null
  lastDay: { delivered: number; failed: number; pending: number }
}
interface DeliveryPage {
  total: number
  deliveries: {
    id: string
    eventType: string
    status: string
    attempts: number
    attemptLog: { outcome: string; status: number | null; responseExcerpt: string }[]
  }[]
}

describe.each(engines)('outgoing webhooks on %s', { timeout: 120_000 }, (engine) => {
  // A day of retries in seconds: a second apart, three retries.
  const bench = webhookBench(engine, {
    owner: 'Wendy Webhooks',
    organization: 'Hooked Works',
    queue: { retryDelaySeconds: 1, retryDelayMaxSeconds: 1, retryLimitAtMost: 3 },
    receiver: true,
  })
  let h: OrganizationHarness
  let owner: Person
  let organizationId: string
  let receiver: WebhookReceiver
  const db = () => bench.db
  const mutate = <T>(path: string, who: Person, input?: unknown) =>
    h.trpc<T>('mutation', `webhooks.${path}`, who.cookie, input)
  const query = <T>(path: string, who: Person, input?: unknown) =>
    h.trpc<T>('query', `webhooks.${path}`, who.cookie, input)
  const addEndpoint = async (who: Person, url: string, events: string[]) => {
    const answer = await mutate<{ id: string; secret: string }>('create', who, { url, events, locale: 'en' })
    expect(answer.error, 'the endpoint is saved').toBeUndefined()
    return answer.data as { id: string; secret: string }
  }
  /** Someone new signs up and joins the organization by invitation (member.added); answers them and their member id. */
  const newMember = async (name: string) => {
    const person = await h.signUp(`${name} ${engine}`)
    return { person, memberId: await h.join(organizationId, owner, person, 'member') }
  }
  /** The owner removes a member from the organization (member.removed). */
  const removeMember = async (memberId: string) => {
    const removed = await h.call('/organization/remove-member', {
      body: { organizationId, memberIdOrEmail: memberId },
      cookie: owner.cookie,
    })
    expect(removed.status, 'the member is removed').toBe(200)
  }

  beforeAll(() => {
    ;({ h, owner, organizationId, receiver } = bench)
  })

  it('sends each subscribed event once, signed so the receiver verifies it with the same library', async () => {
    const { secret } = await addEndpoint(owner, receiver.url, [...webhookEventTypes])
    expect(secret).toMatch(/^whsec_/)
    receiver.trust(secret)

    const { person: joiner, memberId } = await newMember('Jo Joiner')
    await until(() => receiver.ofType('member.added').length === 1, 'member.added')
    expect(receiver.ofType('member.added')[0]).toMatchObject({
      verified: true,
      data: { memberId, userId: joiner.id, name: joiner.name, email: joiner.email, role: 'member' },
    })
    await removeMember(memberId)
    await until(() => receiver.ofType('member.removed').length === 1, 'member.removed')
    expect(receiver.ofType('member.removed')[0]).toMatchObject({
      verified: true,
      data: { memberId, userId: joiner.id, email: joiner.email },
    })

    // Each message once (its id never seen twice), every one verified.
    expect(new Set(receiver.received.map((message) => message.id)).size).toBe(receiver.received.length)
    expect(receiver.received.every((message) => message.verified)).toBe(true)
    // The receiver has its answer a moment before the delivery is written down as delivered.
    let list = await query<Endpoint[]>('list', owner)
    await until(async () => {
      list = await query<Endpoint[]>('list', owner)
      return list.data?.[0]?.lastDay.delivered === receiver.received.length
    }, 'the list to count every delivery')
    expect(JSON.stringify(list.data), 'the list never shows a secret').not.toContain('whsec_')
  })

  // Billing's events, where billing is installed: an app's kinds of event reach the endpoints that chose every kind.
  // Without billing they are not kinds at all. One test either way: a skipped test fails `npm test`.
  const billingInstalled = (installedApps as readonly string[]).includes('billing')
  it(
    billingInstalled
      ? 'sends billing’s events: an order paid, a subscription started'
      : 'offers no billing events when billing is not installed, and refuses an endpoint asking for one',
    async () => {
      if (!billingInstalled) {
        expect(webhookEventTypes).not.toContain('order.paid')
        const refused = await mutate('create', owner, { url: receiver.url, events: ['order.paid'], locale: 'en' })
        expect(refused.error?.code).toBe('BAD_REQUEST')
        return
      }
      const before = receiver.received.length
      // Paying for Pro through the local checkout: the order is paid and the subscription starts.
      const checkout = await h.trpc<{ orderId: string; url: string }>(
        'mutation',
        'billing.startCheckout',
        owner.cookie,
        {
          planId: 'pro',
          interval: 'monthly',
          currency: 'USD',
        },
      )
      const url = checkout.data?.url ?? ''
      const settled = await h.trpc('mutation', 'billing.local.settle', owner.cookie, {
        id: url.slice(url.lastIndexOf('/') + 1),
        outcome: 'pay',
      })
      expect(settled.error).toBeUndefined()
      await until(() => receiver.ofType('order.paid').length === 1, 'order.paid')
      await until(() => receiver.ofType('subscription.updated').length >= 1, 'subscription.updated')
      expect(receiver.ofType('order.paid')[0]?.data).toMatchObject({ orderId: checkout.data?.orderId, planId: 'pro' })
      expect(receiver.ofType('subscription.updated')[0]?.data).toMatchObject({ planId: 'pro', status: 'active' })

      expect(receiver.received.length).toBeGreaterThan(before)
      expect(receiver.received.every((message) => message.verified)).toBe(true)
    },
  )

  it('sends an endpoint only the events it chose', async () => {
    const other = await startWebhookReceiver()
    try {
      // Someone joins before the second endpoint is added, and leaves after: it chose only who joins.
      const { memberId } = await newMember('Nia Passing')
      other.trust((await addEndpoint(owner, other.url, ['member.added'])).secret)
      const before = receiver.ofType('member.removed').length
      await removeMember(memberId)
      await until(() => receiver.ofType('member.removed').length === before + 1, 'the first endpoint’s member.removed')
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(other.received).toEqual([])
    } finally {
      await other.close()
    }
  })

  it('retries a failing receiver, then switches the endpoint off and emails the owner; "send again" delivers', async () => {
    const failing = await startWebhookReceiver()
    try {
      const endpoint = await addEndpoint(owner, failing.url, ['member.added'])
      failing.trust(endpoint.secret)
      failing.failWith(503)
      await newMember('Nobody Home')
      const [delivery] = await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint.id))
      await until(async () => {
        const [row] = await db()
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.id, delivery?.id ?? ''))
        return row?.status === 'failed'
      }, 'the delivery to give up')
      // The first attempt and three retries, each logged with the receiver's answer; the same message id each time.
      expect(failing.received).toHaveLength(4)
      expect(new Set(failing.received.map((message) => message.id))).toEqual(new Set([delivery?.id]))
      const attempts = await db()
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, delivery?.id ?? ''))
      expect(attempts.map((attempt) => [attempt.outcome, attempt.status])).toEqual(Array(4).fill(['status', 503]))
      expect(attempts[0]?.responseExcerpt).toContain('Receiver down for maintenance')

      // Giving up is written first; switching the endpoint off and the email follow in the same attempt.
      const noticeOf = async () =>
        (await db().select().from(emailOutbox).where(eq(emailOutbox.to, owner.email))).find(
          (email) => email.subject.includes('webhook endpoint was switched off') && email.text.includes(failing.url),
        )
      await until(async () => (await noticeOf()) !== undefined, 'the email to the owner')
      const [switchedOff] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))
      expect(switchedOff).toMatchObject({ enabled: false, disabledReason: 'failing' })
      const notice = await noticeOf()
      expect(notice?.text).toContain(failing.url)
      expect(notice?.text).toContain(`/en/console/organization/webhooks?endpoint=${endpoint.id}`)

      // Switched off: a new event is not written for it.
      await newMember('While Off')
      expect(
        await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id)),
      ).toHaveLength(1)

      // The receiver is back: "send again" delivers the same message, and the log shows every attempt.
      failing.failWith(undefined)
      const resent = await mutate<{ delivered: boolean; status: number }>('resend', owner, { id: delivery?.id })
      expect(resent.data).toMatchObject({ delivered: true, status: 204 })
      expect(failing.received.at(-1)).toMatchObject({ id: delivery?.id, verified: true })
      const log = await query<DeliveryPage>('deliveries', owner, { endpointId: endpoint.id })
      expect(log.data?.deliveries[0]).toMatchObject({ id: delivery?.id, status: 'delivered', attempts: 5 })
      expect(log.data?.deliveries[0]?.attemptLog[0]).toMatchObject({ outcome: 'delivered', status: 204 })

      // Switched on again, it receives events again.
      const on = await mutate<Endpoint>('update', owner, { id: endpoint.id, enabled: true })
      expect(on.data).toMatchObject({ enabled: true, disabledReason: null })
      const { person: welcomed } = await newMember('Welcome Back')
      await until(
        () => failing.ofType('member.added').some((message) => message.data.email === welcomed.email),
        'the event after switching on',
      )
    } finally {
      await failing.close()
    }
  })

  it('refuses a private address at save and at delivery, unless WEBHOOKS_ALLOW_PRIVATE', async () => {
    const env = getEnv() as { WEBHOOKS_ALLOW_PRIVATE: boolean }
    env.WEBHOOKS_ALLOW_PRIVATE = false
    try {
      for (const url of [
        'http://127.0.0.1:9/hooks',
        'http://169.254.169.254/latest',
        'http://[::1]/x',
        'http://10.1.2.3/',
      ]) {
        const refused = await mutate('create', owner, { url, events: ['member.added'] })
        // The owner is the installation's first account, its app admin: told which variable allows such receivers.
        expect(refused.error?.fieldErrors?.url, url).toEqual(['validation_webhook_url_private_allow'])
      }
      const unresolved = await mutate('create', owner, {
        url: 'https://no-such-host.invalid/',
        events: ['member.added'],
      })
      expect(unresolved.error?.fieldErrors?.url).toEqual(['validation_webhook_url_unresolved'])
      for (const url of ['ftp://example.com/', 'https://user:pw@example.com/', 'not a url']) {
        const refused = await mutate('create', owner, { url, events: ['member.added'] })
        expect(refused.error?.fieldErrors?.url, url).toEqual(['validation_webhook_url_invalid'])
      }
      // An endpoint saved while private addresses were allowed is refused when it is delivered to.
      const [delivery] = await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, 'delivered'))
        .limit(1)
      const sentBefore = receiver.received.length
      const resent = await mutate<{ delivered: boolean; failure: string }>('resend', owner, { id: delivery?.id })
      expect(resent.data).toMatchObject({ delivered: false, failure: 'refused-destination' })
      expect(receiver.received).toHaveLength(sentBefore)
    } finally {
      env.WEBHOOKS_ALLOW_PRIVATE = true
    }
  })

  it('lets only members with webhook permissions see or change endpoints', async () => {
    const plain = await h.signUp(`Mel Member ${engine}`)
    await h.join(organizationId, owner, plain, 'member')
    const admin = await h.signUp(`Ada Admin ${engine}`)
    await h.join(organizationId, owner, admin, 'admin')
    const [endpoint] = await db()
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organizationId, organizationId))
      .limit(1)
    for (const [kind, path, input] of [
      ['query', 'list', undefined],
      ['mutation', 'create', { url: receiver.url, events: ['member.added'] }],
      ['query', 'deliveries', { endpointId: endpoint?.id }],
      ['mutation', 'delete', { id: endpoint?.id }],
    ] as const) {
      const answer = await h.trpc(kind, `webhooks.${path}`, plain.cookie, input)
      expect([answer.status, answer.error?.appCode], path).toEqual([403, 'NOT_ALLOWED_TO_ACCESS_RESOURCE'])
    }
    const seen = await query<Endpoint[]>('list', admin)
    expect(seen.data?.length).toBeGreaterThan(0)
    const rotated = await mutate<{ secret: string }>('rotateSecret', admin, { id: endpoint?.id })
    expect(rotated.data?.secret).toMatch(/^whsec_/)
    expect(rotated.data?.secret).not.toBe(endpoint?.secret)
    const deleted = await mutate('delete', admin, { id: endpoint?.id })
    expect(deleted.error).toBeUndefined()
    expect(
      await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint?.id ?? '')),
    ).toEqual([])
  })
})
