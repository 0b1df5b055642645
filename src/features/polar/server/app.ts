import { defineServerApp } from '#/server/app-manifest'
import { getEnv } from '#/server/env'

/** Polar takes the payments once its access token and webhook secret are set. */
export const serverApp = defineServerApp({
  name: 'polar',
  paymentProvider: {
    id: 'polar',
    configured: () => Boolean(getEnv().POLAR_ACCESS_TOKEN && getEnv().POLAR_WEBHOOK_SECRET),
    load: async () => {
      const env = getEnv()
      const { PolarPaymentProvider } = await import('./provider')
      return new PolarPaymentProvider({
        accessToken: env.POLAR_ACCESS_TOKEN ?? '',
        webhookSecret: env.POLAR_WEBHOOK_SECRET ?? '',
        environment: env.POLAR_SERVER,
        apiUrl: env.POLAR_API_URL,
      })
    },
  },
})
