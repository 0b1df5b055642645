import { createFileRoute } from '@tanstack/react-router'
import { bookMcpTools } from '#/features/books/server/mcp-tools'
import { docsMcpTools } from '#/features/docs/server/mcp-tools'
import { getDb } from '#/server/db/database'
import { answerMcpRequest } from '#/server/mcp'
import { clientIpOf } from '#/server/trpc/context'

/** The Model Context Protocol server (Streamable HTTP): the docs for anyone, books with an API key. */
function answer({ request }: { request: Request }): Promise<Response> {
  return answerMcpRequest(request, {
    db: getDb(),
    clientIp: clientIpOf(request),
    toolSets: [docsMcpTools, bookMcpTools],
  })
}

export const Route = createFileRoute('/api/mcp')({
  server: { handlers: { GET: answer, POST: answer, DELETE: answer } },
})
