// Each endpoint's events in order (docs/decisions/037-webhook-order-and-attempt-timestamps.md), against a real
// database and the job queue: a later event waits while an earlier one is retried, a backlog keeps its order however
// old it is, an event failing for an hour after its first attempt lets the later ones go, and a dead endpoint that
// keeps getting events costs one queued job per waiting endpoint, not one per event per earlier event.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { orderHoldMs } from '#/features/webhooks/server/delivery-order'
import {
  recordWebhookEvent,
  sendWebhookDeliveries,
  sweepWebhookDeliveries,
  webhookDeliveryJob,
} from '#/features/webhooks/server/webhook-deliveries'
import { webhookDeliveries } from '#/server/db/schema'
import type { OrganizationHarness, Person } from '../../../../tests/integration/organization-fixtures'
import { engines } from '../../../../tests/integration/test-databases'
import { until, webhookBench } from './webhook-bench'
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver'

interface QueuedJob {
  id: string
  state: string
  startAfter: Date
  deliveryId: string
}

describe.each(engines)('the order of webhook deliveries on %s', { timeout: 120_000 }, (engine) => {
  // Retries a second apart, and enough of them that no test's endpoint gives up (and is switched off) midway.
  const bench = webhookBench(engine, {
    owner: 'Olive Order',
    organization: 'Ordered Works',
    queue: { retryDelaySeconds: 1, retryDelayMaxSeconds: 1, retryLimitAtMost: 10 },
  })
  let h: OrganizationHarness
  let owner: Person
  let organizationId: string
  const db = () => bench.db

  /** A receiver with an endpoint of its own, removed with it after `story`. */
  const withEndpoint = async (
    events: string[],
    story: (receiver: WebhookReceiver, endpointId: string) => Promise<void>,
  ) => {
    const receiver = await startWebhookReceiver()
    const created = await h.trpc<{ id: string; secret: string }>('mutation', 'webhooks.create', owner.cookie, {
      url: receiver.url,
      events,
      locale: 'en',
    })
    const endpoint = created.data as { id: string; secret: string }
    receiver.trust(endpoint.secret)
    try {
      await story(receiver, endpoint.id)
    } finally {
      await h.trpc('mutation', 'webhooks.delete', owner.cookie, { id: endpoint.id })
      await receiver.close()
    }
  }
  const deliveriesOf = (endpointId: string) =>
    db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(webhookDeliveries.createdAt)
  /** The queue's delivery jobs for these deliveries, oldest first. */
  const jobsOf = async (deliveryIds: string[]): Promise<QueuedJob[]> => {
    if (deliveryIds.length === 0) return []
    const { rows } = (await db().execute(
      sql`select id, state, start_after as "startAfter", data->>'deliveryId' as "deliveryId" from pgboss.job
          where name = ${webhookDeliveryJob.name} and data->>'deliveryId' in ${sql`(${sql.join(
            deliveryIds.map((id) => sql`${id}`),
            sql`, `,
          )})`} order by created_on`,
    )) as unknown as { rows: QueuedJob[] }
    return rows
  }
  const record = async (type: 'member.added' | 'member.removed', data: Record<string, unknown>) =>
    recordWebhookEvent(db(), { organizationId, type, data })
  /** Someone new signs up and joins by invitation (member.added); answers their member id. */
  let joiners = 0
  const join = async () => {
    const person = await h.signUp(`Jay Joiner ${++joiners} ${engine}`)
    return h.join(organizationId, owner, person, 'member')
  }
  /** The owner removes the member again (member.removed). */
  const remove = async (memberId: string) => {
    const removed = await h.call('/organization/remove-member', {
      body: { organizationId, memberIdOrEmail: memberId },
      cookie: owner.cookie,
    })
    expect(removed.status, 'the member is removed').toBe(200)
  }

  beforeAll(() => {
    ;({ h, owner, organizationId } = bench)
  })

  it('delivers an endpoint’s events in order: a later event waits while an earlier one is retried', async () => {
    await withEndpoint(['member.added', 'member.removed'], async (ordered, endpointId) => {
      // member.added is refused until member.removed's job has looked at it: only the order can have held it back.
      const removedLookedAt = async () => {
        const removed = (await deliveriesOf(endpointId)).filter((delivery) => delivery.eventType === 'member.removed')
        const jobs = await jobsOf(removed.map((delivery) => delivery.id))
        return jobs.some((job) => job.state === 'completed')
      }
      ordered.failWhen(async (message) =>
        message.type === 'member.added' && !(await removedLookedAt()) ? 503 : undefined,
      )
      const memberId = await join()
      await until(() => ordered.received.length >= 1, 'the first attempt of member.added')
      await remove(memberId)
      await until(() => ordered.accepted().length === 2, 'both events accepted')
      expect(
        ordered.received.map((message) => [message.type, message.answered]),
        'member.removed must wait for the member.added that was being retried',
      ).toEqual([
        ...ordered.received.slice(0, -2).map(() => ['member.added', 503]),
        ['member.added', 204],
        ['member.removed', 204],
      ])
      expect(ordered.received.every((message) => message.verified)).toBe(true)
    })
  })

  it('keeps the order of a backlog older than the hold: an event never attempted holds the later ones', async () => {
    await withEndpoint(['member.added', 'member.removed'], async (ordered, endpointId) => {
      // As if the queue had been down for two hours: both written then, neither attempted.
      const written = [
        ...(await record('member.added', { memberId: 'm_backlog' })),
        ...(await record('member.removed', { memberId: 'm_backlog' })),
      ]
      await db()
        .update(webhookDeliveries)
        .set({ createdAt: sql`${webhookDeliveries.createdAt} - interval '2 hours'` })
        .where(inArray(webhookDeliveries.id, written))
      // The receiver refuses member.added's first attempt; its retry comes a second later.
      ordered.failWhen((message) =>
        message.type === 'member.added' && ordered.ofType('member.added').length === 0 ? 503 : undefined,
      )
      await sendWebhookDeliveries(written)
      await until(() => ordered.accepted().length === 2, 'both events accepted')
      expect(
        ordered.received.map((message) => [message.type, message.answered]),
        'member.removed must not overtake a member.added that was recorded two hours ago and not attempted yet',
      ).toEqual([
        ['member.added', 503],
        ['member.added', 204],
        ['member.removed', 204],
      ])
      // The receiver has answered; the job marks the delivery once that answer reaches it.
      const statuses = async () => (await deliveriesOf(endpointId)).map((delivery) => delivery.status)
      await until(async () => (await statuses()).every((status) => status === 'delivered'), 'both marked delivered')
      expect(await statuses()).toEqual(['delivered', 'delivered'])
    })
  })

  it('lets later events go once an earlier one has been failing for an hour since its first attempt', async () => {
    await withEndpoint(['member.added', 'member.removed'], async (ordered) => {
      // member.added fails until member.removed has gone past it, so it is still pending (and retried) meanwhile.
      ordered.failWhen((message) =>
        message.type === 'member.added' && ordered.ofType('member.removed').length === 0 ? 503 : undefined,
      )
      // While its first attempt waits for its answer, that attempt is moved an hour and a minute back.
      let aged = false
      ordered.beforeAnswer(async (message) => {
        if (message.type !== 'member.added' || aged) return
        await db()
          .update(webhookDeliveries)
          .set({ firstAttemptAt: new Date(Date.now() - orderHoldMs - 60_000) })
          .where(eq(webhookDeliveries.id, message.id))
        aged = true
      })
      const memberId = await join()
      await until(() => aged, 'the first attempt of member.added')
      await remove(memberId)
      await until(() => ordered.ofType('member.removed').length === 1, 'member.removed, past the failing member.added')
      expect(ordered.accepted()[0]).toMatchObject({ type: 'member.removed', verified: true })
    })
  })

  it('"send again" on an event waiting its turn hands its retries to one job', async () => {
    await withEndpoint(['member.added', 'member.removed'], async (down, endpointId) => {
      down.failWith(503)
      const memberId = await join()
      await until(() => down.received.length >= 1, 'the first attempt of member.added')
      await remove(memberId)
      const waiting = (await deliveriesOf(endpointId)).find((delivery) => delivery.eventType === 'member.removed')
      expect(waiting, 'member.removed waits behind the failing member.added').toMatchObject({
        status: 'pending',
        attempts: 0,
      })
      const resent = await h.trpc<{ delivered: boolean }>('mutation', 'webhooks.resend', owner.cookie, {
        id: waiting?.id,
      })
      expect(resent.data).toMatchObject({ delivered: false })
      // Its retries now belong to one queued job, a minute later (the first retry's delay).
      const [after] = await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, waiting?.id ?? ''))
      const queued = (await jobsOf([waiting?.id ?? ''])).filter((job) => job.state === 'created')
      expect(
        queued.map((job) => job.id),
        'one job holds its retries',
      ).toEqual([after?.retriesJobId])
      expect(new Date(queued[0]?.startAfter ?? 0).getTime() - Date.now()).toBeGreaterThan(30_000)
    })
  })

  it('sends events recorded where no queue ran, oldest first, one after the other', async () => {
    await withEndpoint(['member.added'], async (later) => {
      // As a command-line task would: written, not queued, and found by the sweep five minutes later.
      const written: string[] = []
      for (const name of ['First', 'Second', 'Third']) written.push(...(await record('member.added', { name })))
      await db()
        .update(webhookDeliveries)
        .set({ createdAt: sql`${webhookDeliveries.createdAt} - interval '10 minutes'` })
        .where(inArray(webhookDeliveries.id, written))
      expect(await sweepWebhookDeliveries(db()), 'one start per endpoint; the rest follow it').toBeGreaterThanOrEqual(1)
      await until(() => later.accepted().length === 3, 'the three events')
      expect(later.accepted().map((message) => message.data.name)).toEqual(['First', 'Second', 'Third'])
    })
  })

  it('keeps a dead endpoint that gets many events to one queued wake-up, at the end of the hold', async () => {
    await withEndpoint(['member.added', 'member.removed'], async (dead, endpointId) => {
      dead.failWith(503)
      // An event between its retries: attempted a minute ago, no job of its own in this queue, so it stays pending.
      const [failing] = await record('member.added', { memberId: 'm_dead' })
      const firstAttemptAt = new Date(Date.now() - 60_000)
      await db()
        .update(webhookDeliveries)
        .set({ attempts: 1, firstAttemptAt, lastAttemptAt: firstAttemptAt, retriesJobId: 'elsewhere' })
        .where(eq(webhookDeliveries.id, failing ?? ''))
      // Twelve more events, each sent to the queue as it is recorded.
      const waiting: string[] = []
      for (let n = 0; n < 12; n++) {
        const ids = await record('member.removed', { n })
        waiting.push(...ids)
        await sendWebhookDeliveries(ids)
      }
      // Every job that was due has run.
      await until(async () => {
        const jobs = await jobsOf(waiting)
        return jobs.every(
          (job) => job.state === 'completed' || new Date(job.startAfter).getTime() > Date.now() + 60_000,
        )
      }, 'the first look at each event')
      // The sweep comes by twice, as if ten and fifteen minutes had passed.
      await sweepWebhookDeliveries(db(), new Date(Date.now() + 10 * 60_000))
      await sweepWebhookDeliveries(db(), new Date(Date.now() + 15 * 60_000))
      await new Promise((resolve) => setTimeout(resolve, 1500))

      const queued = (await jobsOf(waiting)).filter((job) => job.state === 'created' || job.state === 'retry')
      expect(
        queued.map((job) => job.deliveryId),
        'only the earliest waiting event keeps a queued job: the others wait for it, not on a timer each',
      ).toEqual([waiting[0]])
      const wakesAt = new Date(queued[0]?.startAfter ?? 0).getTime()
      expect(Math.abs(wakesAt - (firstAttemptAt.getTime() + orderHoldMs)), 'it wakes when the hold ends').toBeLessThan(
        5_000,
      )
      const rows = await db()
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.id, waiting)))
      expect(rows.every((row) => row.status === 'pending' && row.attempts === 0)).toBe(true)
      expect(dead.received, 'nothing overtook the failing event').toEqual([])
    })
  })

  it('wakes a waiting event once, when the last of the holds on it ends, not as each one ends', async () => {
    await withEndpoint(['member.added', 'member.removed'], async (receiver) => {
      // Five events between their retries, attempted just under an hour ago: their holds end one second apart, from
      // a few seconds ahead, so that a slow machine writing them has not seen the first hold end already.
      const firstHoldEnds = Date.now() + 5_000
      const holdsEndAt: number[] = []
      for (let n = 0; n < 5; n++) {
        const [id] = await record('member.added', { n })
        const at = new Date(firstHoldEnds - orderHoldMs + n * 1000)
        holdsEndAt.push(at.getTime() + orderHoldMs)
        await db()
          .update(webhookDeliveries)
          .set({ attempts: 1, createdAt: at, firstAttemptAt: at, lastAttemptAt: at, retriesJobId: 'elsewhere' })
          .where(eq(webhookDeliveries.id, id ?? ''))
      }
      const later = await record('member.removed', { memberId: 'm_later' })
      await sendWebhookDeliveries(later)
      await until(() => receiver.received.length === 1, 'the later event, once every hold has ended')
      expect(receiver.received[0]?.type).toBe('member.removed')
      expect(Date.now()).toBeGreaterThanOrEqual(Math.max(...holdsEndAt))
      // The job that delivered it is written down as completed a moment after the receiver has its answer.
      const completedRuns = async () => (await jobsOf(later)).filter((job) => job.state === 'completed').length
      await until(async () => (await completedRuns()) >= 2, 'the wake-up job to complete')
      expect(await completedRuns(), 'its first look and one wake-up').toBe(2)
    })
  })

  it('a job that does not own a delivery’s retries does not retry it, even on its own retry', async () => {
    await withEndpoint(['member.added'], async (receiver) => {
      const [deliveryId] = await record('member.added', { memberId: 'm_owned' })
      // Attempted once by another job, whose retries these are.
      await db()
        .update(webhookDeliveries)
        .set({ attempts: 1, firstAttemptAt: new Date(), lastAttemptAt: new Date(), retriesJobId: 'its-own-job' })
        .where(eq(webhookDeliveries.id, deliveryId ?? ''))
      // A start job whose first run failed before it claimed anything, now retried by the queue.
      await webhookDeliveryJob.run(
        db(),
        { deliveryId: deliveryId ?? '' },
        { jobId: 'a-second-start', retryCount: 1, retryLimit: 10, last: false },
      )
      expect(receiver.received, 'no second chain of retries').toEqual([])
      const [row] = await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, deliveryId ?? ''))
      expect(row?.attempts).toBe(1)
    })
  })
})
