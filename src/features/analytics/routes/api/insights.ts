import { createFileRoute } from '@tanstack/react-router'
import { handleInsightsBeacon } from '#/features/analytics/server/beacon-handler'
import { getDb } from '#/server/db/database'

export const Route = createFileRoute('/api/insights')({
  server: { handlers: { POST: ({ request }) => handleInsightsBeacon(request, getDb()) } },
})
