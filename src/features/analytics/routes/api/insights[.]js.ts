import { createFileRoute } from '@tanstack/react-router'
import { serveInsightsScript } from '#/features/analytics/server/script-response'

export const Route = createFileRoute('/api/insights.js')({
  server: { handlers: { GET: ({ request }) => serveInsightsScript(request) } },
})
