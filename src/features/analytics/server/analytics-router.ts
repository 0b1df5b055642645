import { dashboardRangeInput } from '#/features/dashboard/server'
import { getSiteSettings } from '#/server/settings'
import { adminProcedure, createRouter } from '#/server/trpc/init'
import { countLiveVisitors } from './aggregates'
import { readTraffic } from './traffic-queries'

/** Visitors counted as "live": seen within this many minutes. */
const liveWindowMinutes = 5

export const analyticsRouter = createRouter({
  /**
   * The Dashboard's traffic, for app admins: visitors and page views with the previous period, every breakdown, and
   * live visitors. Days are cut in the Dashboard's time zone (Configuration).
   */
  traffic: adminProcedure.input(dashboardRangeInput).query(async ({ ctx, input }) => {
    const settings = await getSiteSettings(ctx.db)
    const timeZone = settings.analyticsTimeZone
    const [traffic, liveVisitors] = await Promise.all([
      readTraffic(ctx.db, { ...input, timeZone }),
      countLiveVisitors(ctx.db, liveWindowMinutes),
    ])
    return {
      range: { from: input.from, to: input.to, granularity: input.granularity, timeZone },
      ...traffic,
      liveVisitors,
      counting: settings.apps.analytics.enabled,
    }
  }),
})
