import type { Database } from '../db/client'
import { getSiteSettings } from '../settings'
import { analyticsEventWriter } from './event-writer'
import { rollupIntervalMs, runAnalyticsRollup } from './rollup'

let timer: ReturnType<typeof setInterval> | undefined

/** Starts the rollup and retention job in this app server; the job itself makes sure it runs once per interval. */
export function startAnalyticsJobs(db: Database): void {
  if (timer) return
  const run = async () => {
    try {
      const { analyticsTimeZone } = await getSiteSettings(db)
      await runAnalyticsRollup(db, { timeZone: analyticsTimeZone })
    } catch (error) {
      console.error('[analytics] rollup failed', error)
    }
  }
  void run()
  timer = setInterval(run, rollupIntervalMs)
  timer.unref()
}

/** Stops the job and writes the beacons still queued; part of a graceful shutdown. */
export async function stopAnalyticsJobs(db: Database): Promise<void> {
  clearInterval(timer)
  timer = undefined
  await analyticsEventWriter(db).flush()
}
