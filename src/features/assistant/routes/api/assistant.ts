import { createFileRoute } from '@tanstack/react-router'
import { answerAssistantRequest } from '#/features/assistant/server/assistant-chat'
import { bookAssistantTools } from '#/features/books/server'
import { docsAssistantTools } from '#/features/docs/server'
import { aiProvider } from '#/server/ai/provider'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'
import { clientIpOf } from '#/server/trpc/context'

/** The console assistant's streamed answers; its conversations are read and managed through tRPC (`assistant.*`). */
function answer({ request }: { request: Request }): Promise<Response> {
  const env = getEnv()
  return answerAssistantRequest(request, {
    db: getDb(),
    clientIp: clientIpOf(request),
    provider: aiProvider(env),
    toolSets: [bookAssistantTools, docsAssistantTools],
    requestsPerMinute: env.AI_REQUESTS_PER_MINUTE,
    trustedOrigins: env.trustedOrigins,
  })
}

export const Route = createFileRoute('/api/assistant')({
  server: { handlers: { POST: answer } },
})
