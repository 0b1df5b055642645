import { defineServerApp } from '#/server/app-manifest'
import { getEnv } from '#/server/env'

/** Lemon Squeezy takes the payments once its API key, store, webhook secret and variants are set. */
export const serverApp = defineServerApp({
  name: 'lemonsqueezy',
  paymentProvider: {
    id: 'lemonsqueezy',
    configured: () => Boolean(getEnv().LEMONSQUEEZY_API_KEY && getEnv().LEMONSQUEEZY_WEBHOOK_SECRET),
    load: async (db) => {
      const env = getEnv()
      const [{ LemonSqueezyPaymentProvider }, { parseVariantPlans }] = await Promise.all([
        import('./provider'),
        import('./events'),
      ])
      return new LemonSqueezyPaymentProvider(db, {
        apiKey: env.LEMONSQUEEZY_API_KEY ?? '',
        webhookSecret: env.LEMONSQUEEZY_WEBHOOK_SECRET ?? '',
        storeId: env.LEMONSQUEEZY_STORE_ID ?? '',
        currency: env.LEMONSQUEEZY_CURRENCY,
        plans: parseVariantPlans(env.LEMONSQUEEZY_VARIANTS ?? ''),
      })
    },
    // A store sells in one currency.
    currencies: () => [getEnv().LEMONSQUEEZY_CURRENCY],
  },
})
