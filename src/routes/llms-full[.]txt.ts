import { createFileRoute } from '@tanstack/react-router'
import { llmsFull } from '#/features/docs/server/llms'
import { getEnv } from '#/server/env'

export const Route = createFileRoute('/llms-full.txt')({
  server: {
    handlers: {
      GET: async () =>
        new Response(await llmsFull(getEnv().APP_URL), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } }),
    },
  },
})
