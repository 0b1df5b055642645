import { createFileRoute } from '@tanstack/react-router'
import { handleBillingWebhook } from '#/features/billing/server/webhook'
import { requestBodyBytesMax } from '#/lib/request-body-limit'
import { getDb } from '#/server/db/database'
import { readBodyText } from '#/server/request-body'

export const Route = createFileRoute('/api/billing/webhook/$provider')({
  server: {
    handlers: {
      POST: async ({ request, params }) => {
        // Declared or chunked, an event past the limit is refused before it is held whole.
        const body = await readBodyText(request, requestBodyBytesMax)
        if (body === 'too-large') return Response.json({ error: 'Event too large' }, { status: 413 })
        return handleBillingWebhook(getDb(), params.provider, body, request.headers)
      },
    },
  },
})
