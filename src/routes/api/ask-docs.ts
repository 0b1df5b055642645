import { createFileRoute } from '@tanstack/react-router'
import { answerDocsQuestion } from '#/features/docs/server/ask-docs'
import { retrieveDocs } from '#/features/docs/server/docs-retrieval'
import { aiProvider } from '#/server/ai/provider'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'
import { clientIpOf } from '#/server/trpc/context'

/** "Ask the docs": a question answered from the documentation, streamed, citing the pages it used. */
function answer({ request }: { request: Request }): Promise<Response> {
  const env = getEnv()
  return answerDocsQuestion(request, {
    db: getDb(),
    clientIp: clientIpOf(request),
    provider: aiProvider(env),
    questionsPerMinute: env.AI_DOCS_QUESTIONS_PER_MINUTE,
    trustedOrigins: env.trustedOrigins,
    retrieve: retrieveDocs,
  })
}

export const Route = createFileRoute('/api/ask-docs')({
  server: { handlers: { POST: answer } },
})
