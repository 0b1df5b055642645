import { defineApp } from '#/lib/app-manifest'

/** Polar, a merchant of record, as the payment provider: its checkouts and subscriptions, its Standard Webhooks read into the billing ledger. */
export const app = defineApp({ name: 'polar', needs: ['billing'] })
