import { defineApp } from '#/lib/app-manifest'

/** The address every page loads the page-view script from, while counting is on. */
export const insightsScriptPath = '/api/insights.js'

/** First-party, cookie-free page-view analytics: the script, its beacons, the daily rollups and the Dashboard's traffic. */
export const app = defineApp({
  name: 'analytics',
  pageScripts: (settings) => (settings.apps.analytics.enabled ? [{ src: insightsScriptPath, defer: true }] : []),
  prefetchSiteDashboard: ({ queryClient, trpc }, input) =>
    queryClient.prefetchQuery(trpc.analytics.traffic.queryOptions(input)),
})
