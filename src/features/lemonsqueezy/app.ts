import { defineApp } from '#/lib/app-manifest'

/** Lemon Squeezy, a merchant of record, as the payment provider: one store, its variants mapped to the plans, its signed webhooks read into the billing ledger. */
export const app = defineApp({ name: 'lemonsqueezy', needs: ['billing'] })
