import { createFileRoute } from '@tanstack/react-router'
import { getAuthRedis } from '#/server/auth/auth'
import { getDb } from '#/server/db/database'
import { checkHealth } from '#/server/health'

export const Route = createFileRoute('/api/health')({
  server: { handlers: { GET: () => checkHealth(getDb(), getAuthRedis()) } },
})
