import { resolveAuthSecret } from '../auth-secret'
import type { Database } from '../db/client'
import { getEnv } from '../env'
import { LocalPaymentProvider } from './local-provider'
import type { PaymentProvider } from './provider'
import { StripePaymentProvider } from './stripe-provider'

export type PaymentProviderId = PaymentProvider['id']

/** Stripe when its keys are set; otherwise the built-in local provider, so a fresh clone can check out. */
export function activePaymentProviderId(): PaymentProviderId {
  const env = getEnv()
  return env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET ? 'stripe' : 'local'
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
  return localPaymentProvider(db)
}
