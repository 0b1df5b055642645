import type { Database } from '#/server/db/client'
import { defineJob } from '#/server/jobs/queue'
import { getSiteSettings } from '#/server/settings'
import { analyticsEventWriter } from './event-writer'
import { runAnalyticsRollup } from './rollup'

/** The rollup and retention job: every five minutes on one server (the job queue; the rollup also guards itself). */
export const analyticsRollupJob = defineJob<object>({
  name: 'analytics-rollup',
  retryLimit: 1,
  schedule: { cron: '*/5 * * * *', periodSeconds: 300 },
  run: async (db) => {
    const { analyticsTimeZone } = await getSiteSettings(db)
    await runAnalyticsRollup(db, { timeZone: analyticsTimeZone })
  },
})

/** Writes the beacons still queued in this server; part of a graceful shutdown. */
export async function flushAnalytics(db: Database): Promise<void> {
  await analyticsEventWriter(db).flush()
}
