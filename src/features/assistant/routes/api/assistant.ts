import { createFileRoute } from '@tanstack/react-router'
import { installedAppTools } from '#/features/assistant/server/app-tools'
import { answerAssistantRequest } from '#/features/assistant/server/assistant-chat'
import { docsAssistantTools } from '#/features/docs/server'
import { aiProvider } from '#/server/ai/provider'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'
import { clientIpOf } from '#/server/trpc/context'

/** The console assistant's streamed answers; its conversations are read and managed through tRPC (`assistant.*`). */
async function answer({ request }: { request: Request }): Promise<Response> {
  const env = getEnv()
  const apps = await installedAppTools()
  return answerAssistantRequest(request, {
    db: getDb(),
    clientIp: clientIpOf(request),
    provider: aiProvider(env),
    toolSets: [...apps.toolSets, docsAssistantTools],
    toolInstructions: apps.instructions,
    requestsPerMinute: env.AI_REQUESTS_PER_MINUTE,
    trustedOrigins: env.trustedOrigins,
  })
}

export const Route = createFileRoute('/api/assistant')({
  server: { handlers: { POST: answer } },
})
