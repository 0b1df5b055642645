import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  type CallToolResult,
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { APIError } from 'better-auth/api'
import { m } from '#/paraglide/messages'
import { appAuthExtensions } from './auth/app-auth.gen'
import { apiKeyHeader, authForDatabase } from './auth/auth'
import type { Database } from './db/client'
import { log } from './log'
import { consumeApiKeyCall, consumeRateLimit } from './rate-limit'
import { inLocaleOfRequest } from './request-locale'
import type { VerifiedSession } from './trpc/context'
import { refusalText } from './trpc/refusal-text'
import { type AppCaller, createAppCaller } from './trpc/root'

/** What a tool set gets: the caller's procedures, as the API key's owner (undefined without a key). */
export interface McpToolContext {
  /**
   * Where a feature registers its tools: registerTool only, so every tool is one the endpoint knows by name (a call
   * of any other is the spec's unknown tool) and the server's capabilities stay the endpoint's to declare.
   */
  server: Pick<McpServer, 'registerTool'>
  /** The app's procedures called as the key's owner, with every permission check they make; absent without a key. */
  asKeyOwner?: AppCaller
}

/**
 * Tools registered on each request's server: the docs', and an installed app's (its server manifest's `mcpTools`),
 * which src/routes/api/mcp.ts puts together.
 */
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
 * What a 401 says besides its JSON-RPC error (RFC 9110 requires a challenge): the key, sent as a bearer token, was
 * not accepted. It names no resource metadata, because this server is no OAuth resource: there is no authorization
 * server to send a client to, and /.well-known/oauth-protected-resource answers 404 (docs: MCP).
 */
const invalidKeyChallenge = 'Bearer realm="mcp", error="invalid_token"'

/** What a POST carried, read once here (within the SDK's own body limit) to refuse what the transport would misname. */
type PostedBody =
  | { kind: 'message'; message: JSONRPCMessage }
  /** Not JSON, or too large: the transport answers it (-32700, 413) as it reads the body itself. */
  | { kind: 'unread' }
  /**
   * Several messages in one POST. MCP dropped batches in its 2025-06-18 revision; refused because the key check and
   * the address limit count once per POST, so a batch would pass a hundred calls as one.
   */
  | { kind: 'batch' }
  /** JSON that is no JSON-RPC message (an object without `method`, say): JSON-RPC's -32600, where the SDK says -32700. */
  | { kind: 'invalid'; id: string | number | null }

async function readPostedBody(request: Request): Promise<PostedBody> {
  const body = await readRequestBody(request.clone())
  if (body.tooLarge) return { kind: 'unread' }
  let value: unknown
  try {
    value = JSON.parse(body.text)
  } catch {
    return { kind: 'unread' }
  }
  if (Array.isArray(value)) return { kind: 'batch' }
  const parsed = JSONRPCMessageSchema.safeParse(value)
  if (parsed.success) return { kind: 'message', message: parsed.data }
  const id = (value as { id?: unknown } | null)?.id
  return { kind: 'invalid', id: typeof id === 'string' || typeof id === 'number' ? id : null }
}

function jsonRpcRefusal(
  status: number,
  message: string,
  options: { headers?: Record<string, string>; code?: number; id?: string | number | null } = {},
): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: options.code ?? -32001, message }, id: options.id ?? null },
    { status, headers: { 'Cache-Control': 'no-store', ...options.headers } },
  )
}

/** The codes the installed apps' guards refuse a valid key with (src/server/auth/app-auth.ts). */
const keyRefusalCodes = new Set(appAuthExtensions.flatMap((extension) => extension.keyRefusalCodes ?? []))

/** The words of a refusal's code (`error_code_{CODE}`, the app's own catalogue included), if it has them. */
function refusalInWords(code: string): string | undefined {
  if (!/^[A-Z][A-Z0-9_]*$/.test(code)) return undefined
  const words = (m as unknown as Record<string, (() => string) | undefined>)[`error_code_${code}`]
  return typeof words === 'function' ? words() : undefined
}

/** The key's owner as a checked session, or the refusal to answer instead. */
async function keyOwnerSession(db: Database, headers: Headers): Promise<VerifiedSession | Response> {
  const invalidKey = () =>
    jsonRpcRefusal(401, m.mcp_api_key_invalid(), { headers: { 'WWW-Authenticate': invalidKeyChallenge } })
  try {
    return (await authForDatabase(db).api.getSession({ headers })) ?? invalidKey()
  } catch (error) {
    if (!(error instanceof APIError) || error.statusCode >= 500) throw error
    // A valid key an app's guard refuses (an organization that requires single sign-on): known, but not usable now.
    const code = (error.body as { code?: unknown } | undefined)?.code
    if (typeof code === 'string' && keyRefusalCodes.has(code)) {
      return jsonRpcRefusal(403, refusalInWords(code) ?? m.mcp_api_key_refused())
    }
    return invalidKey()
  }
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
  if (request.method !== 'POST') return jsonRpcRefusal(405, m.mcp_post_only(), { headers: { Allow: 'POST' } })
  const posted = await readPostedBody(request)
  if (posted.kind === 'batch') return jsonRpcRefusal(400, m.mcp_batch_refused())
  if (posted.kind === 'invalid') {
    return jsonRpcRefusal(400, m.mcp_invalid_request(), { code: ErrorCode.InvalidRequest, id: posted.id })
  }
  const key = apiKeyOf(request)
  let asKeyOwner: AppCaller | undefined
  if (key) {
    const headers = new Headers({ [apiKeyHeader]: key })
    const session = await keyOwnerSession(options.db, headers)
    if (session instanceof Response) return session
    const rate = await consumeApiKeyCall(options.db, session.session.id)
    if (!rate.allowed) {
      return jsonRpcRefusal(429, m.mcp_api_key_throttled(), {
        headers: { 'Retry-After': String(rate.retryAfterSeconds) },
      })
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
        headers: { 'Retry-After': String(rate.retryAfterSeconds) },
      })
    }
  }
  const server = new McpServer({ name: 'hatch', version: '1.0.0' })
  // Named as the tool sets register them: a call of any other tool is refused as the spec says (below).
  const toolNames = new Set<string>()
  const tools: McpToolContext['server'] = {
    registerTool: (name, config, callback) => {
      toolNames.add(name)
      return server.registerTool(name, config, callback)
    },
  }
  for (const register of options.toolSets) register({ server: tools, asKeyOwner })
  // The SDK advertises `tools.listChanged`, a notification this server can never send: it keeps no stream open.
  server.server.registerCapabilities({ tools: { listChanged: false } })
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  answerUnknownToolsAsProtocolErrors(transport, toolNames)
  return transport.handleRequest(request, posted.kind === 'message' ? { parsedBody: posted.message } : undefined)
}

/**
 * The SDK answers a call of a tool it does not have as a tool result marked isError; the specification lists unknown
 * tools among protocol errors (-32602). A tool that needs an API key is unknown to a request without one.
 */
function answerUnknownToolsAsProtocolErrors(
  transport: WebStandardStreamableHTTPServerTransport,
  toolNames: ReadonlySet<string>,
): void {
  const dispatch = transport.onmessage
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const name = (message.params as { name?: unknown } | undefined)?.name
      if (typeof name === 'string' && !toolNames.has(name)) {
        transport
          .send({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: ErrorCode.InvalidParams, message: m.mcp_tool_unknown({ name }) },
          })
          // The client went away before its answer: nothing to tell it, but not a silent unhandled rejection either.
          .catch((error: unknown) => log().warn({ err: error }, 'mcp: an unknown tool’s refusal was not sent'))
        return
      }
    }
    dispatch?.(message, extra)
  }
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
