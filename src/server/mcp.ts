import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { APIError } from 'better-auth/api'
import { m } from '#/paraglide/messages'
import { apiKeyHeader, authForDatabase } from './auth/auth'
import type { Database } from './db/client'
import { consumeApiKeyCall, consumeRateLimit } from './rate-limit'
import { inLocaleOfRequest } from './request-locale'
import type { VerifiedSession } from './trpc/context'
import { refusalText } from './trpc/refusal-text'
import { type AppCaller, createAppCaller } from './trpc/root'

/** What a feature's tools get: the caller's procedures, as the API key's owner (undefined without a key). */
export interface McpToolContext {
  server: McpServer
  /** The app's procedures called as the key's owner, with every permission check they make; absent without a key. */
  asKeyOwner?: AppCaller
}

/** A feature's tools, registered on each request's server (src/routes/api/mcp.ts composes them). */
export type McpToolSet = (context: McpToolContext) => void

/** Anonymous calls per address and minute; a key's own limit (consumeApiKeyCall) applies to key calls. */
const anonymousLimit = { limit: 120, windowMs: 60_000 }

/** The key a request carries, in `x-api-key` or as `Authorization: Bearer <key>`. */
function apiKeyOf(request: Request): string | undefined {
  const header = request.headers.get(apiKeyHeader)?.trim()
  if (header) return header
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')
  return bearer?.[1]
}

/**
 * A JSON-RPC batch (several messages in one POST). MCP dropped batches in its 2025-06-18 revision; refused here because
 * the key check and the address limit count once per POST, so a batch would pass a hundred calls as one.
 */
async function isBatch(request: Request): Promise<boolean> {
  try {
    return Array.isArray(await request.clone().json())
  } catch {
    return false
  }
}

function jsonRpcRefusal(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32001, message }, id: null },
    { status, headers: { 'Cache-Control': 'no-store', ...headers } },
  )
}

/**
 * Answers `/api/mcp`: a Model Context Protocol server over Streamable HTTP, stateless (a new server per request, JSON
 * answers). Without a key it offers the public tools; with a valid API key also the key owner's. A key that is
 * wrong, expired or revoked is 401, whatever the call; cookies are never read, so a browser's session cannot be
 * used from another site.
 */
export function answerMcpRequest(
  request: Request,
  options: { db: Database; clientIp: string; toolSets: McpToolSet[] },
): Promise<Response> {
  // Refusals are words a person or a model reads: in the language the client asks for (Accept-Language).
  return inLocaleOfRequest(request, () => answerInLocale(request, options))
}

async function answerInLocale(
  request: Request,
  options: { db: Database; clientIp: string; toolSets: McpToolSet[] },
): Promise<Response> {
  // A stateless server has no stream of its own to offer on GET and no session to end on DELETE. Answering them
  // (the transport would open an event stream that never ends) let anyone, without a key, hold connections open.
  if (request.method !== 'POST') return jsonRpcRefusal(405, m.mcp_post_only(), { Allow: 'POST' })
  if (await isBatch(request)) {
    return jsonRpcRefusal(400, m.mcp_batch_refused())
  }
  const key = apiKeyOf(request)
  let asKeyOwner: AppCaller | undefined
  if (key) {
    const headers = new Headers({ [apiKeyHeader]: key })
    let session: VerifiedSession | null
    try {
      session = await authForDatabase(options.db).api.getSession({ headers })
      if (!session) return jsonRpcRefusal(401, m.mcp_api_key_invalid())
    } catch (error) {
      if (error instanceof APIError && error.statusCode < 500) {
        return jsonRpcRefusal(401, m.mcp_api_key_invalid())
      }
      throw error
    }
    const rate = await consumeApiKeyCall(options.db, session.session.id)
    if (!rate.allowed) {
      return jsonRpcRefusal(429, m.mcp_api_key_throttled(), { 'Retry-After': String(rate.retryAfterSeconds) })
    }
    asKeyOwner = createAppCaller({
      db: options.db,
      headers,
      clientIp: options.clientIp,
      method: request.method,
      // Checked once here: each tool's procedure does not check (and count against the key's limit) again.
      verifiedSession: session,
    })
  } else {
    const rate = await consumeRateLimit(options.db, `mcp:${options.clientIp}`, anonymousLimit)
    if (!rate.allowed) {
      return jsonRpcRefusal(429, m.error_code_TOO_MANY_REQUESTS(), {
        'Retry-After': String(rate.retryAfterSeconds),
      })
    }
  }
  const server = new McpServer({ name: 'hatch', version: '1.0.0' })
  for (const register of options.toolSets) register({ server, asKeyOwner })
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  return transport.handleRequest(request)
}

/** A tool's answer: the value as JSON text, and as structured content for clients that read it. */
export function toolResult(value: object): CallToolResult {
  const json = JSON.stringify(value, null, 2)
  return { content: [{ type: 'text', text: json }], structuredContent: JSON.parse(json) }
}

/** A procedure's refusal as the tool's error (the model reads it and may try again); a server fault is thrown. */
export function toolRefusal(error: unknown): CallToolResult {
  const text = refusalText(error)
  if (text === undefined) throw error
  return { content: [{ type: 'text', text }], isError: true }
}
