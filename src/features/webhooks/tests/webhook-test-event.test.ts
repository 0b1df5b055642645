// Trying and debugging an endpoint: "Send test event" delivers a signed `webhook.test` through the queue, so it shows
// in the delivery log and verifies with the standardwebhooks package; it is rate-limited and refused for a switched-off
// endpoint; and a refused private address tells an app admin which variable allows local receivers.
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { beforeAll, describe, expect, it } from 'vitest'
import { users } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import type { OrganizationHarness, Person } from '../../../../tests/integration/organization-fixtures'
import { engines } from '../../../../tests/integration/test-databases'
import { until, webhookBench } from './webhook-bench'
import type { WebhookReceiver } from './webhook-receiver'

interface Attempt {
  outcome: string
  status: number
  requestUrl: string
  requestHeaders: Record<string, string>
  requestBody: string
  responseHeaders: Record<string, string>
  responseExcerpt: string
}
interface DeliveryPage {
  deliveries: { id: string; eventType: string; status: string; nextAttemptAt: Date | null; attemptLog: Attempt[] }[]
}

describe.each(engines)('trying a webhook endpoint on %s', { timeout: 90_000 }, (engine) => {
  const bench = webhookBench(engine, { owner: 'Tess Tester', organization: 'Test Bench', receiver: true })
  let h: OrganizationHarness
  let owner: Person
  let receiver: WebhookReceiver
  const db = () => bench.db
  const mutate = <T>(path: string, who: Person, input?: unknown) =>
    h.trpc<T>('mutation', `webhooks.${path}`, who.cookie, input)

  beforeAll(() => {
    ;({ h, owner, receiver } = bench)
  })

  it('sends a signed webhook.test through the normal path, logged, rate-limited, not to a switched-off endpoint', async () => {
    const created = await mutate<{ id: string; secret: string }>('create', owner, {
      url: receiver.url,
      events: ['member.added'],
    })
    const { id, secret } = created.data as { id: string; secret: string }
    receiver.trust(secret)

    const sent = await mutate<{ deliveryId: string }>('sendTest', owner, { id })
    expect(sent.error, 'the test event is queued').toBeUndefined()
    await until(() => receiver.ofType('webhook.test').length === 1, 'the test event')
    const [message] = receiver.ofType('webhook.test')
    expect(message, 'it verifies with Webhook.verify').toMatchObject({ verified: true, data: { endpointId: id } })
    expect(message?.id).toBe(sent.data?.deliveryId)
    expect(message?.headers['webhook-signature']).toMatch(/^v1,/)
    expect(() => new Webhook(secret).verify('{"tampered":true}', message?.headers as Record<string, string>)).toThrow()

    const log = () => h.trpc<DeliveryPage>('query', 'webhooks.deliveries', owner.cookie, { endpointId: id })
    await until(async () => (await log()).data?.deliveries[0]?.status === 'delivered', 'the logged delivery')
    expect((await log()).data?.deliveries[0]).toMatchObject({
      id: sent.data?.deliveryId,
      eventType: 'webhook.test',
      status: 'delivered',
      attemptLog: [{ outcome: 'delivered', status: 204 }],
    })

    // Five a minute per endpoint: enough to try a receiver, not a way to make the server call a URL at will.
    for (let more = 0; more < 4; more++) expect((await mutate('sendTest', owner, { id })).error).toBeUndefined()
    const refused = await mutate('sendTest', owner, { id })
    expect(refused.status).toBe(429)
    expect(refused.error?.appCode).toBe('TOO_MANY_REQUESTS')

    // The queued test events are sent before the receiver closes.
    await until(() => receiver.ofType('webhook.test').length === 5, 'the other test events')
    const other = await mutate<{ id: string }>('create', owner, { url: receiver.url, events: ['member.added'] })
    const otherId = other.data?.id
    await mutate('update', owner, { id: otherId, enabled: false })
    const off = await mutate('sendTest', owner, { id: otherId })
    expect(off.error?.appCode).toBe('WEBHOOK_ENDPOINT_OFF')

    const member = await h.signUp(`Mo Member ${engine}`)
    const organizationId = (await h.activeOrganizationOf(owner)) ?? ''
    await h.join(organizationId, owner, member, 'member')
    expect((await mutate('sendTest', member, { id })).status, 'a member may not send one').toBe(403)
  })

  it('logs each attempt’s exact request and answer, and when a waiting delivery is tried next', async () => {
    const created = await mutate<{ id: string; secret: string }>('create', owner, {
      url: receiver.url,
      events: ['member.added'],
    })
    const { id, secret } = created.data as { id: string; secret: string }
    receiver.trust(secret)
    receiver.failWith(503)
    try {
      const before = receiver.ofType('webhook.test').length
      await mutate('sendTest', owner, { id })
      const log = () => h.trpc<DeliveryPage>('query', 'webhooks.deliveries', owner.cookie, { endpointId: id })
      const retryScheduled = async () => {
        const waiting = (await log()).data?.deliveries[0]
        return waiting?.attemptLog.length === 1 && new Date(waiting.nextAttemptAt ?? 0).getTime() > Date.now() + 30_000
      }
      await until(retryScheduled, 'the retry to be scheduled')
      expect(receiver.ofType('webhook.test')).toHaveLength(before + 1)
      const page = await log()
      const delivery = page.data?.deliveries[0]
      const attempt = delivery?.attemptLog[0] as Attempt
      expect(attempt).toMatchObject({ outcome: 'status', status: 503, requestUrl: receiver.url })
      expect(attempt.requestHeaders).toMatchObject({ 'webhook-id': delivery?.id, 'content-type': 'application/json' })
      expect(attempt.requestHeaders['webhook-signature']).toMatch(/^v1,/)
      // The logged request is exactly what was signed: it verifies as the receiver verified it.
      expect(new Webhook(secret).verify(attempt.requestBody, attempt.requestHeaders)).toMatchObject({
        type: 'webhook.test',
        data: { endpointId: id, test: true },
      })
      expect(attempt.responseHeaders['content-type']).toBe('text/plain')
      expect(attempt.responseExcerpt).toBe('Receiver down for maintenance (503)')
      expect(JSON.stringify(page.data), 'the log never shows the secret').not.toContain(secret.slice(6))
      // Waiting for its first retry, a minute after the failure.
      expect(delivery?.status).toBe('pending')
      const next = new Date(delivery?.nextAttemptAt ?? 0).getTime()
      expect(next, 'the next attempt is due in about a minute').toBeGreaterThan(Date.now() + 30_000)
      expect(next).toBeLessThan(Date.now() + 120_000)
    } finally {
      receiver.failWith(undefined)
    }
  })

  it('tells an app admin, and only them outside development, how to allow private receivers', async () => {
    const env = getEnv() as { WEBHOOKS_ALLOW_PRIVATE: boolean }
    env.WEBHOOKS_ALLOW_PRIVATE = false
    try {
      const input = { url: 'http://127.0.0.1:9/hooks', events: ['member.added'] }
      // The first account of an installation is its app admin: made an ordinary user, then an admin again.
      await db().update(users).set({ role: 'user' }).where(eq(users.id, owner.id))
      const asOwner = await mutate('create', owner, input)
      expect(asOwner.error?.fieldErrors?.url).toEqual(['validation_webhook_url_private'])
      await db().update(users).set({ role: 'admin' }).where(eq(users.id, owner.id))
      const asAdmin = await mutate('create', owner, input)
      expect(asAdmin.error?.fieldErrors?.url).toEqual(['validation_webhook_url_private_allow'])
    } finally {
      env.WEBHOOKS_ALLOW_PRIVATE = true
      await db().update(users).set({ role: 'admin' }).where(eq(users.id, owner.id))
    }
  })
})
