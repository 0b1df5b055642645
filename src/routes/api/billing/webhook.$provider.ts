import { createFileRoute } from '@tanstack/react-router'
import { handleBillingWebhook } from '#/features/billing/server/webhook'
import { getDb } from '#/server/db/database'

export const Route = createFileRoute('/api/billing/webhook/$provider')({
  server: {
    handlers: {
      POST: async ({ request, params }) =>
        handleBillingWebhook(getDb(), params.provider, await request.text(), request.headers),
    },
  },
})
