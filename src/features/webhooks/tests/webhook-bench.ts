// What every outgoing-webhooks test stands on: a fresh database with its migrations, the job queue (retries in
// seconds, as a test sets), an owner with an organization of their own, and, if asked for, a receiver that verifies
// each request with the standardwebhooks package. Receivers listen on this machine, so private addresses are allowed
// before the environment is first read.
process.env.WEBHOOKS_ALLOW_PRIVATE = 'true'

import { afterAll, beforeAll } from 'vitest'
import type { DatabaseEngine } from '#/server/db/client'
import { type JobRunnerOptions, startJobQueue, stopJobQueue } from '#/server/jobs/queue'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver'

export interface WebhookBench {
  readonly db: FreshDatabase['connection']['db']
  readonly h: OrganizationHarness
  readonly owner: Person
  readonly organizationId: string
  /** The receiver started with the bench (only when `receiver: true`). */
  readonly receiver: WebhookReceiver
}

/**
 * Sets the bench up before the describe block's tests and takes it down after them. Its fields are read inside tests
 * and hooks, once it stands.
 */
export function webhookBench(
  engine: DatabaseEngine,
  options: { owner: string; organization: string; queue?: JobRunnerOptions; receiver?: boolean },
): WebhookBench {
  let database: FreshDatabase | undefined
  let harness: OrganizationHarness | undefined
  let owner: Person | undefined
  let organizationId: string | undefined
  let receiver: WebhookReceiver | undefined
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the webhook bench has no ${what} yet: read it inside a test`)
    return value
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    await startJobQueue(database.connection, { pollingIntervalSeconds: 0.5, ...options.queue })
    harness = organizationHarness(database.connection.db)
    owner = await harness.signUp(`${options.owner} ${engine}`)
    const slug = `${options.organization.toLowerCase().replaceAll(/[^a-z]+/g, '-')}-${engine}`
    organizationId = await harness.createOrganization(owner, options.organization, slug, { plan: 'free' })
    if (options.receiver) receiver = await startWebhookReceiver()
  }, 60_000)
  afterAll(async () => {
    await stopJobQueue()
    await receiver?.close()
    await database?.dispose()
  })

  return {
    get db() {
      return ready(database, 'database').connection.db
    },
    get h() {
      return ready(harness, 'harness')
    },
    get owner() {
      return ready(owner, 'owner')
    },
    get organizationId() {
      return ready(organizationId, 'organization')
    },
    get receiver() {
      return ready(receiver, 'receiver')
    },
  }
}

/** Waits until `check` holds, or fails naming `what` after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 45_000, everyMs = 200 } = {},
): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += everyMs) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  throw new Error(`gave up waiting for ${what}`)
}
