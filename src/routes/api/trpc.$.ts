import { createFileRoute } from '@tanstack/react-router'
import { getDb } from '#/server/db/database'
import { handleTrpcRequest } from '#/server/trpc/handler'

export const Route = createFileRoute('/api/trpc/$')({
  server: {
    handlers: {
      GET: ({ request }) => handleTrpcRequest(request, getDb()),
      POST: ({ request }) => handleTrpcRequest(request, getDb()),
    },
  },
})
