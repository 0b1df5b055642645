import { createFileRoute } from '@tanstack/react-router'
import { answerNotificationStream } from '#/features/notifications/server/notification-stream'
import { getDb } from '#/server/db/database'

export const Route = createFileRoute('/api/notifications')({
  server: { handlers: { GET: ({ request }) => answerNotificationStream(request, getDb()) } },
})
