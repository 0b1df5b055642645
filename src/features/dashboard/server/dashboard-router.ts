import { getSiteSettings } from '#/server/settings'
import { adminProcedure, createRouter, orgProcedure } from '#/server/trpc/init'
import { dashboardRangeInput } from '../schemas'
import { readOrganizationNumbers } from './organization-queries'
import { readProductNumbers } from './product-queries'

export const dashboardRouter = createRouter({
  /**
   * Site-wide numbers for app admins: sign-ups and active users (an app adds its own section with its own procedure,
   * as analytics does traffic and billing revenue). Days are cut in the dashboard's time zone (Configuration).
   */
  site: adminProcedure.input(dashboardRangeInput).query(async ({ ctx, input }) => {
    const { analyticsTimeZone: timeZone } = await getSiteSettings(ctx.db)
    const range = { ...input, timeZone }
    const product = await readProductNumbers(ctx.db, range)
    return { range: { from: input.from, to: input.to, granularity: input.granularity, timeZone }, product }
  }),

  /** The active organization's own numbers, for those who may manage it (owners and admins). */
  organization: orgProcedure({ organization: ['update'] })
    .input(dashboardRangeInput)
    .query(async ({ ctx, input }) => {
      const { analyticsTimeZone: timeZone } = await getSiteSettings(ctx.db)
      const numbers = await readOrganizationNumbers(ctx.db, ctx.organization)
      return { range: { from: input.from, to: input.to, granularity: input.granularity, timeZone }, ...numbers }
    }),
})
