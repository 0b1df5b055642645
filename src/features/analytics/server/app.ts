import { defineServerApp } from '#/server/app-manifest'

const jobs = () => import('./analytics-jobs')

/** First-party analytics: the rollup job, the beacons written before a server stops, and days cut in a new zone. */
export const serverApp = defineServerApp({
  name: 'analytics',
  jobs: async () => [(await jobs()).analyticsRollupJob],
  shutdownTasks: [{ name: 'writing queued analytics beacons', run: async (db) => (await jobs()).flushAnalytics(db) }],
  // A beacon changes no one's access, so it leaves what the server remembers of access alone.
  accessNeutralPosts: ['/api/insights'],
  settingsChanged: async (db, { changed, settings }) => {
    if (!changed.includes('analyticsTimeZone')) return
    // The Dashboard's days move with the zone: cut the kept days again now rather than at the job's next turn. If
    // this run fails or another server holds the job, the next turn re-cuts them.
    const { runAnalyticsRollup } = await import('./rollup')
    await runAnalyticsRollup(db, { timeZone: settings.analyticsTimeZone, force: true })
  },
})
