import { sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { jobSchema } from '#/server/jobs/queue'
import { webhookDeliveryJob } from './webhook-deliveries'

/**
 * When each waiting delivery's next attempt is due: the start time of its queued job (a first attempt held back, or
 * a retry pg-boss has scheduled with its backoff), read from pg-boss's own table since that is where the time lives.
 * A delivery with no queued job (held until an earlier one is attempted) has none. Where the queue's tables do not
 * exist yet, no times: the log still shows everything else.
 */
export async function nextAttemptTimes(db: Database, deliveryIds: readonly string[]): Promise<Map<string, Date>> {
  const times = new Map<string, Date>()
  if (deliveryIds.length === 0) return times
  try {
    const result = await db.execute(sql`
      select singleton_key as "deliveryId", min(start_after) as "startAfter"
      from ${sql.identifier(jobSchema)}.job
      where name = ${webhookDeliveryJob.name} and state in ('created', 'retry')
        and singleton_key in (${sql.join(
          deliveryIds.map((id) => sql`${id}`),
          sql`, `,
        )})
      group by singleton_key`)
    for (const row of (result as unknown as { rows: { deliveryId: string; startAfter: Date | string }[] }).rows) {
      times.set(row.deliveryId, new Date(row.startAfter))
    }
  } catch {
    // No queue schema (a database the queue never started on): the times are left out.
  }
  return times
}
