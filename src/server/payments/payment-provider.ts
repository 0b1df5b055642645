import { type Currency, currencies } from '#/lib/plans'
import { resolveAuthSecret } from '../auth-secret'
import type { Database } from '../db/client'
import { getEnv } from '../env'
import { parseVariantPlans } from './lemonsqueezy-events'
import { LemonSqueezyPaymentProvider } from './lemonsqueezy-provider'
import { LocalPaymentProvider } from './local-provider'
import { PaddlePaymentProvider } from './paddle-provider'
import { PolarPaymentProvider } from './polar-provider'
import type { PaymentProvider } from './provider'
import { StripePaymentProvider } from './stripe-provider'

export type PaymentProviderId = PaymentProvider['id']

/**
 * The provider whose keys are set (the environment allows one at most); otherwise the built-in local provider, so a
 * fresh clone can check out.
 */
export function activePaymentProviderId(): PaymentProviderId {
  const env = getEnv()
  if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) return 'stripe'
  if (env.POLAR_ACCESS_TOKEN && env.POLAR_WEBHOOK_SECRET) return 'polar'
  if (env.LEMONSQUEEZY_API_KEY && env.LEMONSQUEEZY_WEBHOOK_SECRET) return 'lemonsqueezy'
  if (env.PADDLE_API_KEY && env.PADDLE_WEBHOOK_SECRET) return 'paddle'
  return 'local'
}

/** The currencies the active provider can charge in: a Lemon Squeezy store sells in one, the others in all. */
export function checkoutCurrencies(): Currency[] {
  const env = getEnv()
  return activePaymentProviderId() === 'lemonsqueezy' ? [env.LEMONSQUEEZY_CURRENCY] : [...currencies]
}

export function localPaymentProvider(db: Database): LocalPaymentProvider {
  const env = getEnv()
  const { secret } = resolveAuthSecret({ configured: env.BETTER_AUTH_SECRET, dataDir: env.DATA_DIR })
  return new LocalPaymentProvider(db, { secret, appUrl: env.APP_URL })
}

/** The provider that takes new checkouts and webhooks; a provider that is not active refuses its webhooks. */
export function paymentProviderFor(db: Database, id: PaymentProviderId = activePaymentProviderId()): PaymentProvider {
  if (id === 'stripe') {
    const env = getEnv()
    if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) throw new Error('Stripe is not configured')
    return new StripePaymentProvider({
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiUrl: env.STRIPE_API_URL,
      paymentMethods: env.STRIPE_PAYMENT_METHODS,
    })
  }
  if (id === 'polar') {
    const env = getEnv()
    if (!env.POLAR_ACCESS_TOKEN || !env.POLAR_WEBHOOK_SECRET) throw new Error('Polar is not configured')
    return new PolarPaymentProvider({
      accessToken: env.POLAR_ACCESS_TOKEN,
      webhookSecret: env.POLAR_WEBHOOK_SECRET,
      environment: env.POLAR_SERVER,
      apiUrl: env.POLAR_API_URL,
    })
  }
  if (id === 'lemonsqueezy') {
    const env = getEnv()
    const { LEMONSQUEEZY_API_KEY: apiKey, LEMONSQUEEZY_WEBHOOK_SECRET: webhookSecret } = env
    if (!apiKey || !webhookSecret || !env.LEMONSQUEEZY_STORE_ID || !env.LEMONSQUEEZY_VARIANTS) {
      throw new Error('Lemon Squeezy is not configured')
    }
    return new LemonSqueezyPaymentProvider(db, {
      apiKey,
      webhookSecret,
      storeId: env.LEMONSQUEEZY_STORE_ID,
      currency: env.LEMONSQUEEZY_CURRENCY,
      plans: parseVariantPlans(env.LEMONSQUEEZY_VARIANTS),
    })
  }
  if (id === 'paddle') {
    const env = getEnv()
    const { PADDLE_API_KEY: apiKey, PADDLE_WEBHOOK_SECRET: webhookSecret } = env
    if (!apiKey || !webhookSecret || !env.PADDLE_CLIENT_TOKEN) throw new Error('Paddle is not configured')
    return new PaddlePaymentProvider({
      apiKey,
      webhookSecret,
      environment: env.PADDLE_ENVIRONMENT,
      apiUrl: env.PADDLE_API_URL,
      appUrl: env.APP_URL,
    })
  }
  return localPaymentProvider(db)
}
