import { enabledAuthMethods } from '../../auth/methods'
import { getEnv } from '../../env'
import { getSiteSettings } from '../../settings'
import { createRouter, publicProcedure } from '../init'

export const settingsRouter = createRouter({
  /** What every visitor's page needs: product name, repository link, default theme. */
  public: publicProcedure.query(async ({ ctx }) => {
    const settings = await getSiteSettings(ctx.db)
    const env = getEnv()
    return {
      ...settings,
      /** The public origin, for absolute links such as hreflang alternates. */
      appUrl: env.APP_URL,
      /** Sign-in buttons show only for methods that are switched on and configured. */
      authMethods: enabledAuthMethods(settings, env),
    }
  }),
})
