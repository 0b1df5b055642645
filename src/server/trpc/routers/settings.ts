import { getEnv } from '../../env'
import { getSiteSettings } from '../../settings'
import { createRouter, publicProcedure } from '../init'

export const settingsRouter = createRouter({
  /** What every visitor's page needs: product name, repository link, default theme. */
  public: publicProcedure.query(async ({ ctx }) => ({
    ...(await getSiteSettings(ctx.db)),
    /** The public origin, for absolute links such as hreflang alternates. */
    appUrl: getEnv().APP_URL,
  })),
})
