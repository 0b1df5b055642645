import { createFileRoute } from '@tanstack/react-router'
import { docsMcpTools } from '#/features/docs/server/mcp-tools'
import { serverApps } from '#/server/apps.gen'
import { getDb } from '#/server/db/database'
import { answerMcpRequest } from '#/server/mcp'
import { clientIpOf } from '#/server/trpc/context'

/** The Model Context Protocol server (Streamable HTTP): the docs for anyone, then the installed apps' tools. */
async function answer({ request }: { request: Request }): Promise<Response> {
  const appToolSets = await Promise.all(serverApps.flatMap((app) => (app.mcpTools ? [app.mcpTools()] : [])))
  return answerMcpRequest(request, {
    db: getDb(),
    clientIp: clientIpOf(request),
    toolSets: [docsMcpTools, ...appToolSets],
  })
}

export const Route = createFileRoute('/api/mcp')({
  server: { handlers: { GET: answer, POST: answer, DELETE: answer } },
})
