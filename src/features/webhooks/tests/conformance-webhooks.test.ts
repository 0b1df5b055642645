// The standard's own client on every delivery: a receiver that verifies with the `standardwebhooks` package's
// `Webhook.verify` (what the docs tell customers to use, which refuses a `webhook-timestamp` more than five minutes
// from its clock) gets a first attempt, a retry more than five minutes after the event, and "send again" a day after
// it, each from the job queue or the procedure against a real database. Hatch has no test event to send.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { webhookDeliveries } from '#/server/db/schema'
import type { OrganizationHarness, Person } from '../../../../tests/integration/organization-fixtures'
import { engines } from '../../../../tests/integration/test-databases'
import { until, webhookBench } from './webhook-bench'
import type { WebhookReceiver } from './webhook-receiver'

describe.each(engines)('the standardwebhooks verifier on %s', { timeout: 120_000 }, (engine) => {
  const bench = webhookBench(engine, {
    owner: 'Vera Verifier',
    organization: 'Verified Works',
    queue: { retryDelaySeconds: 1, retryDelayMaxSeconds: 1, retryLimitAtMost: 3 },
    receiver: true,
  })
  let h: OrganizationHarness
  let owner: Person
  let receiver: WebhookReceiver
  const db = () => bench.db
  const ageDelivery = (id: string, ms: number) =>
    db()
      .update(webhookDeliveries)
      .set({ createdAt: new Date(Date.now() - ms) })
      .where(eq(webhookDeliveries.id, id))
  /** Every request that arrived for one delivery, as the verifier judged it. */
  const verdicts = (id: string) =>
    receiver.received
      .filter((message) => message.id === id)
      .map((message) => ({ answered: message.answered, verified: message.verified, refused: message.verifyError }))
  /** Someone new signs up and joins the organization by invitation: a member.added event. Answers them. */
  const newMember = async (name: string) => {
    const person = await h.signUp(`${name} ${engine}`)
    await h.join(bench.organizationId, owner, person, 'member')
    return person
  }

  beforeAll(async () => {
    ;({ h, owner, receiver } = bench)
    const endpoint = await h.trpc<{ secret: string }>('mutation', 'webhooks.create', owner.cookie, {
      url: receiver.url,
      events: ['member.added'],
      locale: 'en',
    })
    receiver.trust(endpoint.data?.secret ?? '')
  })

  it('accepts a first attempt, and its retry more than five minutes after the event', async () => {
    // The receiver is down for the first attempt; while that attempt waits for its answer, the event is made ten
    // minutes old, so the retry a second later is, to the verifier, a retry ten minutes after the event.
    const tenMinutes = 10 * 60_000
    receiver.failWhen((message) => (verdicts(message.id).length === 0 ? 503 : undefined))
    receiver.beforeAnswer(async (message) => {
      if (message.answered === 503) await ageDelivery(message.id, tenMinutes)
    })
    try {
      await newMember('Retried Late')
      await until(() => receiver.accepted().length === 1, 'the retry to be accepted')
    } finally {
      receiver.failWhen(undefined)
      receiver.beforeAnswer(undefined)
    }
    const [retry] = receiver.accepted()
    expect(verdicts(retry?.id ?? ''), 'both attempts verify with Webhook.verify').toEqual([
      { answered: 503, verified: true, refused: undefined },
      { answered: 204, verified: true, refused: undefined },
    ])
    // The header is the retry's own time; the body still says when the event happened.
    const sentAt = Number(retry?.headers['webhook-timestamp']) * 1000
    expect(Math.abs(Date.now() - sentAt)).toBeLessThan(60_000)
    expect(Date.now() - Date.parse(retry?.timestamp ?? '')).toBeGreaterThan(tenMinutes - 60_000)
  })

  it('accepts "send again" a day after the event, with the same webhook-id', async () => {
    const sentAgain = await newMember('Sent Again')
    const isTheirs = (message: { data: Record<string, unknown> }) => message.data.email === sentAgain.email
    await until(() => receiver.ofType('member.added').some(isTheirs), 'it')
    const first = receiver.received.find(isTheirs)
    const id = first?.id ?? ''
    await ageDelivery(id, 86_400_000)
    const resent = await h.trpc<{ delivered: boolean }>('mutation', 'webhooks.resend', owner.cookie, { id })
    expect(resent.data).toMatchObject({ delivered: true })
    expect(verdicts(id), 'the first attempt and "send again" verify with Webhook.verify').toEqual([
      { answered: 204, verified: true, refused: undefined },
      { answered: 204, verified: true, refused: undefined },
    ])
  })
})
