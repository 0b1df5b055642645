// A fake OpenAI-compatible API for tests: a node:http server on 127.0.0.1 that answers chat completions (streamed as
// Server-Sent Events or whole), embeddings and the model list in OpenAI's shapes, from answers the test scripts in
// advance, and records what it was asked. Tests in this process script it with `script()`; a Playwright test in
// another process scripts the server the e2e script started through POST /__script, /__reset and GET /__requests.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

export interface ScriptedToolCall {
  name: string
  arguments: Record<string, unknown>
}

export interface ScriptedTurn {
  /** Text streamed to the client, split into word-sized chunks (keep whitespace so chunks re-join exactly). */
  text?: string
  toolCalls?: ScriptedToolCall[]
  /** Reported token usage; default: prompt = rough count of words in all request messages, completion = number of chunks sent. */
  usage?: { promptTokens: number; completionTokens: number }
  /** Pause before each streamed chunk (default 0); lets a browser test see tokens arrive one by one and press Stop. */
  chunkDelayMs?: number
  /** Answer with this HTTP error instead (OpenAI error JSON body {error:{message,type,code}}). */
  fail?: { status: number; message: string }
  /** Stream `text` partly, then destroy the socket (a provider that dies mid-answer). */
  dropAfterChunks?: number
}

export interface ScriptRule {
  /** Substring (case-insensitive) of the LAST user message's text content. */
  match: string
  /**
   * turns[i] answers the i-th request for that user message: i = the number of assistant and tool messages that come
   * after the last user message in the request (0 for the first answer, 1 after one tool round trip, ...). The last
   * turn repeats if there are more requests.
   */
  turns: ScriptedTurn[]
}

export interface RecordedChatRequest {
  model: string
  stream: boolean
  messages: unknown[]
  /** Names of the functions offered as tools. */
  tools: string[]
  body: Record<string, unknown>
}

export interface RecordedEmbeddingRequest {
  model: string
  input: string[]
}

export interface FakeOpenAi {
  /** Base URL including /v1, e.g. http://127.0.0.1:PORT/v1 (what AI_BASE_URL is set to). */
  url: string
  port: number
  /** Every chat completion request received, in order. */
  chatRequests: RecordedChatRequest[]
  embeddingRequests: RecordedEmbeddingRequest[]
  /** Adds rules; later rules win over earlier ones when several match. */
  script(...rules: ScriptRule[]): void
  /** Removes all rules and recorded requests. */
  reset(): void
  close(): Promise<void>
}

export interface FakeOpenAiOptions {
  /** Default: a free port. */
  port?: number
  /** Default: 127.0.0.1. */
  host?: string
  /** When set, /v1 requests without `Authorization: Bearer <apiKey>` get 401 (the /__ control endpoints need none). */
  apiKey?: string
}

export const fakeModelId = 'fake-model'
/** Dimensions of an embedding unless the request asks for others with `dimensions`. */
export const fakeEmbeddingDimensions = 256

class OpenAiError extends Error {
  status: number
  type: string
  code: string | null
  constructor(status: number, message: string, type = errorType(status), code: string | null = errorCode(status)) {
    super(message)
    this.status = status
    this.type = type
    this.code = code
  }
}

function errorType(status: number) {
  if (status === 401) return 'invalid_request_error'
  if (status === 429) return 'requests'
  if (status >= 500) return 'server_error'
  return 'invalid_request_error'
}

function errorCode(status: number) {
  if (status === 401) return 'invalid_api_key'
  if (status === 429) return 'rate_limit_exceeded'
  return null
}

function send(response: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body)
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) })
  response.end(json)
}

function sendError(response: ServerResponse, error: OpenAiError) {
  send(response, error.status, { error: { message: error.message, type: error.type, param: null, code: error.code } })
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks).toString('utf8')
  let body: unknown
  try {
    body = raw ? JSON.parse(raw) : {}
  } catch {
    throw new OpenAiError(400, 'We could not parse the JSON body of your request.')
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new OpenAiError(400, 'The request body must be a JSON object.')
  }
  return body as Record<string, unknown>
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A message's text: `content` as a string, or its text parts joined by newlines (images and the like are skipped). */
function messageText(message: unknown): string {
  if (!isRecord(message)) return ''
  const { content } = message
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text)
    .join('\n')
}

const roleOf = (message: unknown) => (isRecord(message) ? message.role : undefined)

/** Word-sized pieces that join back into the text exactly: each word with the whitespace after it. */
export function textChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? []
}

const countWords = (text: string) => text.match(/\S+/g)?.length ?? 0

// FNV-1a: a fixed, fast string hash, so the same word lands in the same dimension in every process.
function hash(token: string) {
  let value = 0x811c9dc5
  for (const byte of Buffer.from(token, 'utf8')) {
    value ^= byte
    value = Math.imul(value, 0x01000193)
  }
  return value >>> 0
}

/**
 * The tokens an embedding counts: lower-cased runs of letters and digits; Han text has no spaces between words, so
 * there each character and each pair of adjacent characters is a token (a cheap stand-in for word segmentation).
 */
export function embeddingTokens(text: string): string[] {
  const tokens: string[] = []
  for (const [run] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    for (const [segment] of run.matchAll(/\p{Script=Han}+|[^\p{Script=Han}]+/gu)) {
      if (!/\p{Script=Han}/u.test(segment)) {
        tokens.push(segment)
        continue
      }
      const characters = [...segment]
      characters.forEach((character, index) => {
        tokens.push(character)
        const next = characters[index + 1]
        if (next) tokens.push(character + next)
      })
    }
  }
  return tokens
}

/**
 * A deterministic embedding: a hashed bag of tokens, L2-normalised, so the cosine similarity of two texts grows with
 * the tokens they share. A text without tokens still gets a unit vector (of the empty token), never zeros.
 */
export function fakeEmbedding(text: string, dimensions = fakeEmbeddingDimensions): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  const tokens = embeddingTokens(text)
  for (const token of tokens.length ? tokens : ['']) {
    const index = hash(token) % dimensions
    vector[index] = (vector[index] ?? 0) + 1
  }
  const length = Math.hypot(...vector)
  return vector.map((value) => value / length)
}

/** The rule for this user text (the latest added wins) and the turn for this request, or the default echo. */
function chooseTurn(rules: ScriptRule[], messages: unknown[]): ScriptedTurn {
  const lastUser = messages.findLastIndex((message) => roleOf(message) === 'user')
  const userText = lastUser >= 0 ? messageText(messages[lastUser]) : ''
  const needle = (text: string) => text.toLowerCase()
  const rule = rules.findLast((candidate) => needle(userText).includes(needle(candidate.match)))
  if (!rule || rule.turns.length === 0) return { text: `Echo: ${userText}` }
  const answered = messages.slice(lastUser + 1).filter((message) => {
    const role = roleOf(message)
    return role === 'assistant' || role === 'tool'
  }).length
  return rule.turns[Math.min(answered, rule.turns.length - 1)] ?? { text: `Echo: ${userText}` }
}

export async function startFakeOpenAi({
  port = 0,
  host = '127.0.0.1',
  apiKey,
}: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const rules: ScriptRule[] = []
  const chatRequests: RecordedChatRequest[] = []
  const embeddingRequests: RecordedEmbeddingRequest[] = []

  function addRules(added: unknown) {
    if (!Array.isArray(added) || !added.every((rule) => isRecord(rule) && typeof rule.match === 'string')) {
      throw new OpenAiError(400, 'Expected {rules: [{match, turns}]}.')
    }
    for (const rule of added as ScriptRule[]) rules.push({ match: rule.match, turns: [...(rule.turns ?? [])] })
  }

  function reset() {
    // Emptied in place: tests keep references to the arrays.
    rules.length = 0
    chatRequests.length = 0
    embeddingRequests.length = 0
  }

  async function chatCompletion(body: Record<string, unknown>, request: IncomingMessage, response: ServerResponse) {
    const messages = Array.isArray(body.messages) ? body.messages : []
    const model = typeof body.model === 'string' ? body.model : fakeModelId
    const stream = body.stream === true
    const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) =>
      isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string' ? [tool.function.name] : [],
    )
    chatRequests.push({ model, stream, messages, tools, body })

    const turn = chooseTurn(rules, messages)
    if (turn.fail) throw new OpenAiError(turn.fail.status, turn.fail.message)

    const id = `chatcmpl-${randomBytes(12).toString('hex')}`
    const created = Math.floor(Date.now() / 1000)
    const chunks = textChunks(turn.text ?? '')
    const toolCalls = (turn.toolCalls ?? []).map((call) => ({
      id: `call_${randomBytes(12).toString('hex')}`,
      type: 'function' as const,
      function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
    }))
    const promptTokens =
      turn.usage?.promptTokens ?? messages.reduce<number>((sum, m) => sum + countWords(messageText(m)), 0)
    const completionTokens = turn.usage?.completionTokens ?? chunks.length + toolCalls.length
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    }
    const finishReason = toolCalls.length ? 'tool_calls' : 'stop'

    if (!stream) {
      // A provider that dies before answering: no status line at all.
      if (turn.dropAfterChunks !== undefined) {
        request.socket.destroy()
        return
      }
      const text = chunks.join('')
      send(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: text || toolCalls.length === 0 ? text : null,
              ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
            },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        usage,
      })
      return
    }

    // The client may leave mid-stream (the user pressed Stop): from then on nothing more is written.
    let clientGone = false
    const closed = new Promise<void>((resolve) =>
      response.on('close', () => {
        clientGone = true
        resolve()
      }),
    )
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
    response.flushHeaders()
    // Resolves once the event has been handed to the socket (or the client has gone).
    const event = async (data: unknown) => {
      if (clientGone) return
      const line = `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
      await Promise.race([new Promise<void>((resolve) => response.write(line, () => resolve())), closed])
    }
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      event({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      })
    // OpenAI names the role in the first delta only.
    let first = true
    const withRole = (delta: Record<string, unknown>) => {
      const named = first ? { role: 'assistant', ...delta } : delta
      first = false
      return named
    }
    const pause = async () => {
      if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs)
    }

    for (const [index, content] of chunks.entries()) {
      if (turn.dropAfterChunks !== undefined && index >= turn.dropAfterChunks) break
      await pause()
      if (clientGone) return
      await chunk(withRole({ content }))
    }
    if (turn.dropAfterChunks !== undefined) {
      // The connection dies without a final chunk or [DONE], after the chunks written so far reached the client.
      request.socket.destroy()
      return
    }
    for (const [index, call] of toolCalls.entries()) {
      await pause()
      if (clientGone) return
      await chunk(withRole({ ...(first ? { content: null } : {}), tool_calls: [{ index, ...call }] }))
    }
    if (clientGone) return
    if (first) await chunk(withRole({ content: '' }))
    await chunk({}, finishReason)
    // Sent always, not only for stream_options.include_usage: clients that did not ask ignore a chunk without choices.
    await event({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })
    await event('[DONE]')
    response.end()
  }

  function embeddings(body: Record<string, unknown>, response: ServerResponse) {
    const model = typeof body.model === 'string' ? body.model : fakeModelId
    const input = (Array.isArray(body.input) ? body.input : [body.input]).map((item) =>
      typeof item === 'string' ? item : JSON.stringify(item ?? ''),
    )
    const dimensions =
      typeof body.dimensions === 'number' && Number.isInteger(body.dimensions) && body.dimensions > 0
        ? body.dimensions
        : fakeEmbeddingDimensions
    embeddingRequests.push({ model, input })
    const tokens = input.reduce((sum, text) => sum + embeddingTokens(text).length, 0)
    send(response, 200, {
      object: 'list',
      data: input.map((text, index) => {
        const vector = fakeEmbedding(text, dimensions)
        // The official SDKs ask for base64 (little-endian float32) unless told otherwise.
        const embedding =
          body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector
        return { object: 'embedding', index, embedding }
      }),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    })
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const { pathname } = new URL(request.url ?? '/', 'http://fake-openai')
    const route = `${request.method} ${pathname.replace(/\/+$/, '')}`

    if (route === 'POST /__script') {
      addRules((await readJson(request)).rules)
      send(response, 200, { ok: true, rules: rules.length })
      return
    }
    if (route === 'POST /__reset') {
      reset()
      send(response, 200, { ok: true })
      return
    }
    if (route === 'GET /__requests') {
      send(response, 200, { chatRequests, embeddingRequests })
      return
    }

    if (pathname.startsWith('/v1/') && apiKey !== undefined && request.headers.authorization !== `Bearer ${apiKey}`) {
      throw new OpenAiError(401, 'Incorrect API key provided.')
    }
    if (route === 'POST /v1/chat/completions') return chatCompletion(await readJson(request), request, response)
    if (route === 'POST /v1/embeddings') return embeddings(await readJson(request), response)
    if (route === 'GET /v1/models') {
      send(response, 200, {
        object: 'list',
        data: [{ id: fakeModelId, object: 'model', created: 1_700_000_000, owned_by: 'hatch-tests' }],
      })
      return
    }
    throw new OpenAiError(
      404,
      `Unknown request URL: ${request.method} ${pathname}.`,
      'invalid_request_error',
      'unknown_url',
    )
  }

  const server: Server = createServer((request, response) => {
    // Writes to a connection the client already closed must not become an unhandled 'error' event.
    response.on('error', () => {})
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent || response.destroyed) {
        response.destroy()
        return
      }
      sendError(response, error instanceof OpenAiError ? error : new OpenAiError(500, String(error)))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const actualPort = (server.address() as AddressInfo).port
  // A server listening on every interface is still reached through the loopback address.
  const reachableHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host

  return {
    url: `http://${reachableHost}:${actualPort}/v1`,
    port: actualPort,
    chatRequests,
    embeddingRequests,
    script: (...added) => addRules(added),
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
