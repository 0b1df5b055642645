import { defineServerApp } from '#/server/app-manifest'
import { getEnv } from '#/server/env'

/** Stripe takes the payments once its secret key and webhook secret are set. */
export const serverApp = defineServerApp({
  name: 'stripe',
  paymentProvider: {
    id: 'stripe',
    configured: () => Boolean(getEnv().STRIPE_SECRET_KEY && getEnv().STRIPE_WEBHOOK_SECRET),
    load: async () => {
      const env = getEnv()
      const { StripePaymentProvider } = await import('./provider')
      return new StripePaymentProvider({
        secretKey: env.STRIPE_SECRET_KEY ?? '',
        webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
        apiUrl: env.STRIPE_API_URL,
        paymentMethods: env.STRIPE_PAYMENT_METHODS,
      })
    },
  },
})
