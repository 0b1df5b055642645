import { defineApp } from '#/lib/app-manifest'

/** Paddle Billing, a merchant of record, as the payment provider: checkouts opened by Paddle.js on its own page, its signed webhooks read into the billing ledger. */
export const app = defineApp({ name: 'paddle', needs: ['billing'] })
