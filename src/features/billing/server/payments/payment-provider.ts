import { type Currency, currencies } from '#/lib/plans'
import { serverApps } from '#/server/apps.gen'
import { resolveAuthSecret } from '#/server/auth-secret'
import type { Database } from '#/server/db/client'
import { getEnv } from '#/server/env'
import { LocalPaymentProvider } from './local-provider'
import type { PaymentProvider } from './provider'

/**
 * A payment provider an installed app brings (its server/app.ts, `paymentProvider`): Stripe, Polar, Lemon Squeezy and
 * Paddle are apps, so a product that sells through one of them removes the others (docs/decisions/042).
 */
export interface PaymentProviderPlugin {
  /** Stored with each order and subscription, and the last segment of its webhook's URL (/api/billing/webhook/<id>). */
  id: string
  /** Whether its variables are set: then it takes the payments (the environment allows one provider at most). */
  configured: () => boolean
  /** The provider, made from its variables (loaded when first asked for). */
  load: (db: Database) => Promise<PaymentProvider>
  /** The currencies it can charge in, when not all of them (a Lemon Squeezy store sells in one). */
  currencies?: () => Currency[]
}

// The payment apps (Stripe, Polar, …) declare their provider in their server manifest: billing adds the field to it,
// so the core's manifest names no payment provider and the field goes when billing does.
declare module '#/server/app-manifest' {
  interface ServerAppManifest {
    /** A payment provider the billing ledger can use; an app that has one needs billing. */
    paymentProvider?: PaymentProviderPlugin
  }
}

/** The built-in provider, which takes no money: a fresh clone can check out with it. */
export const localProviderId = 'local'

const plugins = (): PaymentProviderPlugin[] => serverApps.flatMap((app) => app.paymentProvider ?? [])

const activePlugin = () => plugins().find((plugin) => plugin.configured())

/** The installed provider whose keys are set (the environment allows one at most); otherwise the local provider. */
export function activePaymentProviderId(): string {
  return activePlugin()?.id ?? localProviderId
}

/** The currencies the active provider can charge in. */
export function checkoutCurrencies(): Currency[] {
  return activePlugin()?.currencies?.() ?? [...currencies]
}

export function localPaymentProvider(db: Database): LocalPaymentProvider {
  const env = getEnv()
  const { secret } = resolveAuthSecret({ configured: env.BETTER_AUTH_SECRET, dataDir: env.DATA_DIR })
  return new LocalPaymentProvider(db, { secret, appUrl: env.APP_URL })
}

/**
 * The provider that takes new checkouts and webhooks, or the one a stored order or subscription names. A provider
 * that is not installed or not configured cannot be reached: its records stay as they are.
 */
export async function paymentProviderFor(
  db: Database,
  id: string = activePaymentProviderId(),
): Promise<PaymentProvider> {
  if (id === localProviderId) return localPaymentProvider(db)
  const plugin = plugins().find((candidate) => candidate.id === id)
  if (!plugin) throw new Error(`The payment provider "${id}" is not installed`)
  if (!plugin.configured()) throw new Error(`The payment provider "${id}" is not configured`)
  return plugin.load(db)
}
