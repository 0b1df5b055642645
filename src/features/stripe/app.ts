import { defineApp } from '#/lib/app-manifest'

/** Stripe as the payment provider: checkouts, subscriptions, plan changes and refunds through its API, its signed webhooks read into the billing ledger. */
export const app = defineApp({ name: 'stripe', needs: ['billing'] })
