import { defineApp } from '#/lib/app-manifest'

/** Outgoing webhooks: an organization's endpoints, signed deliveries of its events, and their log. */
export const app = defineApp({ name: 'webhooks' })
