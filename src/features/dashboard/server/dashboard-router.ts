import { countLiveVisitors } from '#/features/analytics/server'
import { getSiteSettings } from '#/server/settings'
import { adminProcedure, createRouter, orgProcedure } from '#/server/trpc/init'
import { dashboardRangeInput } from '../schemas'
import { readOrganizationNumbers } from './organization-queries'
import { readProductNumbers } from './product-queries'
import { readRevenueNumbers } from './revenue-queries'
import { readTraffic } from './traffic-queries'

/** Visitors counted as "live": seen within this many minutes. */
const liveWindowMinutes = 5

export const dashboardRouter = createRouter({
  /**
   * Site-wide numbers for app admins: traffic (with the previous period), its breakdowns, live visitors, sign-ups and
   * active users, orders, revenue and MRR. Days are cut in the dashboard's time zone (Configuration).
   */
  site: adminProcedure.input(dashboardRangeInput).query(async ({ ctx, input }) => {
    const { analyticsTimeZone: timeZone } = await getSiteSettings(ctx.db)
    const range = { ...input, timeZone }
    const [traffic, liveVisitors, product, billing] = await Promise.all([
      readTraffic(ctx.db, range),
      countLiveVisitors(ctx.db, liveWindowMinutes),
      readProductNumbers(ctx.db, range),
      readRevenueNumbers(ctx.db, range),
    ])
    return {
      range: { from: input.from, to: input.to, granularity: input.granularity, timeZone },
      ...traffic,
      liveVisitors,
      product,
      billing,
    }
  }),

  /** The active organization's own numbers, for those who may manage it (owners and admins). */
  organization: orgProcedure({ organization: ['update'] })
    .input(dashboardRangeInput)
    .query(async ({ ctx, input }) => {
      const { analyticsTimeZone: timeZone } = await getSiteSettings(ctx.db)
      const numbers = await readOrganizationNumbers(ctx.db, ctx.organization, { ...input, timeZone })
      return { range: { from: input.from, to: input.to, granularity: input.granularity, timeZone }, ...numbers }
    }),
})
