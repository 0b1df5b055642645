// The MCP server checked by the official SDK's own client (Client + StreamableHTTPClientTransport) against the built
// server, as an assistant app or the MCP Inspector connects: what the standard's client accepts is what ships. The core
// offers the docs' tools; an installed app's own tools (its server manifest's `mcpTools`), listed here beside them, are
// called by the app's tests (src/features/<app>/tests).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverApps } from '#/server/apps.gen'
import type { AppCaller } from '#/server/trpc/root'
import { type AppServer, signUp, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'

interface ToolAnswer {
  isError?: boolean
  content: { type: string; text: string }[]
  structuredContent?: Record<string, unknown>
}

const folder = mkdtempSync(path.join(tmpdir(), 'hatch-conformance-mcp-'))
const cleanups: (() => Promise<unknown> | unknown)[] = []
let server: AppServer
let endpoint: URL
let apiKey: string

/** An SDK client, with the key as a bearer token (or none), as a person configures one. */
async function connect(headers: Record<string, string> = {}, acceptLanguage = 'en') {
  const client = new Client({ name: 'hatch-conformance', version: '1.0.0' })
  const requestInit = { headers: { 'accept-language': acceptLanguage, ...headers } }
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit }))
  return client
}
const withKey = () => connect({ authorization: `Bearer ${apiKey}` })
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolAnswer
const docsTools = ['search_docs', 'get_doc_page']

/**
 * The names the installed apps' tool sets register after the docs' (src/routes/api/mcp.ts), for a request with a key or
 * without one: what the server must list beside the docs' tools, whichever apps this project has.
 */
async function appToolNames(withKey: boolean): Promise<string[]> {
  const names: string[] = []
  for (const app of serverApps) {
    if (!app.mcpTools) continue
    const register = await app.mcpTools()
    register({
      server: { registerTool: ((name: string) => names.push(name)) as never },
      // Only its presence counts while tools are registered: none is called here.
      asKeyOwner: withKey ? ({} as AppCaller) : undefined,
    })
  }
  return names
}

beforeAll(async () => {
  const database: Record<string, string> = { DATA_DIR: folder }
  if (process.env.DATABASE_URL) {
    const throwaway = await createThrowawayPostgresDatabase(process.env.DATABASE_URL, 'hatch_conformance_mcp')
    cleanups.push(() => throwaway.drop())
    database.DATABASE_URL = throwaway.url
  }
  server = await startAppServer({
    port: testPorts.conformanceMcp,
    env: { ...database, APP_URL: `http://localhost:${testPorts.conformanceMcp}` },
  })
  endpoint = new URL('/api/mcp', server.url)
  const cookie = await signUp(server.url, 'conformance@example.com')
  const created = await fetch(`${server.url}/api/auth/api-key/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, cookie },
    body: JSON.stringify({ name: 'SDK client' }),
  })
  expect(created.status, await created.clone().text()).toBe(200)
  apiKey = ((await created.json()) as { key: string }).key
}, 300_000)

afterAll(async () => {
  await server?.stop()
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(folder, { recursive: true, force: true })
})

describe('the MCP server, through the official SDK client', () => {
  it('initializes and lists the docs tools to anyone, the apps’ tools with a key, and promises no listChanged', async () => {
    const anonymous = await connect()
    expect(anonymous.getServerVersion()?.name).toBe('hatch')
    expect((await anonymous.listTools()).tools.map((tool) => tool.name)).toEqual([
      ...docsTools,
      ...(await appToolNames(false)),
    ])
    expect(
      anonymous.getServerCapabilities()?.tools?.listChanged,
      'a stateless server that refuses GET can never send notifications/tools/list_changed',
    ).toBeFalsy()
    await anonymous.close()

    const keyed = await withKey()
    expect((await keyed.listTools()).tools.map((tool) => tool.name)).toEqual([
      ...docsTools,
      ...(await appToolNames(true)),
    ])
    await keyed.close()
  })

  it('calls the docs tools with valid arguments, and answers invalid ones as tool errors the model can correct', async () => {
    for (const client of [await connect(), await withKey()]) {
      const valid: [string, Record<string, unknown>][] = [
        ['search_docs', { query: 'api key' }],
        ['get_doc_page', { path: 'integrations' }],
      ]
      for (const [name, args] of valid) {
        const answer = await call(client, name, args)
        expect(answer.isError, `${name}: ${answer.content[0]?.text}`).toBeFalsy()
      }

      // Since the 2025-11-25 revision, input the tool refuses is a tool error (isError), so the model can try again.
      const invalid: [string, Record<string, unknown>][] = [
        ['search_docs', { query: '' }],
        ['get_doc_page', { path: 42 }],
      ]
      for (const [name, args] of invalid) {
        const answer = await call(client, name, args)
        expect(answer.isError, `${name} with ${JSON.stringify(args)}`).toBe(true)
        expect(answer.content[0]?.text, name).toBeTruthy()
      }
      await client.close()
    }
  })

  it('answers an unknown tool, with a key or without one, with the protocol error -32602', async () => {
    const keyed = await withKey()
    const unknown = await keyed.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: unknown) => error)
    expect(unknown, 'a protocol error, not a result marked isError').toBeInstanceOf(McpError)
    expect((unknown as McpError).code).toBe(-32602)
    await keyed.close()

    // Without a key, a tool that needs one is unknown too, and the refusal says a key may be what is missing.
    const anonymous = await connect()
    const keyless = await anonymous.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: unknown) => error)
    expect(keyless).toBeInstanceOf(McpError)
    expect((keyless as McpError).code).toBe(-32602)
    expect((keyless as McpError).message).toMatch(/API key/)
    await anonymous.close()
  })

  it('answers a JSON-RPC object without a method with -32600 Invalid Request', async () => {
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3 }),
    })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32600 } })
  })

  it('answers GET and DELETE at once with 405, with or without a key: no stream is ever held open', async () => {
    for (const headers of [{}, { 'x-api-key': apiKey }] as Record<string, string>[]) {
      for (const method of ['GET', 'DELETE']) {
        const answer = await fetch(endpoint, {
          method,
          headers: { accept: 'text/event-stream', ...headers },
          signal: AbortSignal.timeout(5_000),
        })
        expect(answer.status, `${method} ${Object.keys(headers).join('')}`).toBe(405)
        expect(answer.headers.get('allow')).toBe('POST')
        expect(await answer.text()).toMatch(/POST requests only/)
      }
    }
    // The SDK's client takes the 405 as "no event stream here" and works as before.
    const keyed = await withKey()
    expect((await keyed.listTools()).tools.length).toBeGreaterThan(0)
    await keyed.close()
  })

  it('refuses a bad key with 401 and a Bearer challenge, which the client surfaces as an error with the reason', async () => {
    const raw = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer hatch_not-a-real-key',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(raw.status).toBe(401)
    expect(raw.headers.get('www-authenticate'), 'RFC 9110 §11.6.1: a 401 carries a challenge').toMatch(
      /^Bearer realm="mcp", error="invalid_token"$/,
    )

    const refused = await connect({ authorization: 'Bearer hatch_not-a-real-key' }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(StreamableHTTPError)
    expect((refused as StreamableHTTPError).code).toBe(401)
    expect((refused as Error).message, 'the server’s own words reach the person').toMatch(/API key is not valid/)
  })

  it('gives a client with an OAuth provider no authorization server to go to: discovery ends in plain 404s', async () => {
    const redirects: URL[] = []
    const discovery: { url: string; status: number }[] = []
    const provider: OAuthClientProvider = {
      redirectUrl: 'http://127.0.0.1:9/callback',
      clientMetadata: { redirect_uris: ['http://127.0.0.1:9/callback'], client_name: 'conformance' },
      clientInformation: () => undefined,
      saveClientInformation: () => {},
      tokens: () => undefined,
      saveTokens: () => {},
      redirectToAuthorization: (url) => {
        redirects.push(url)
      },
      saveCodeVerifier: () => {},
      codeVerifier: () => 'unused',
    }
    const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init)
      const url = input instanceof Request ? input.url : String(input)
      if (url.includes('/.well-known/')) discovery.push({ url: new URL(url).pathname, status: response.status })
      return response
    }
    const client = new Client({ name: 'hatch-conformance-oauth', version: '1.0.0' })
    const transport = new StreamableHTTPClientTransport(endpoint, {
      authProvider: provider,
      fetch: recordingFetch,
      requestInit: { headers: { authorization: 'Bearer hatch_not-a-real-key' } },
    })
    await expect(client.connect(transport)).rejects.toThrow()
    expect(redirects, 'no browser is ever sent to an authorization page').toEqual([])
    expect(discovery.map((step) => step.url)).toContain('/.well-known/oauth-protected-resource')
    expect(
      discovery.filter((step) => step.status !== 404),
      'every metadata address answers 404 at once, never a redirect to a page',
    ).toEqual([])
  })

  it('answers GET /.well-known/oauth-protected-resource (and the other OAuth metadata) with a JSON 404', async () => {
    for (const wellKnown of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]) {
      const answer = await fetch(new URL(wellKnown, server.url), { redirect: 'manual' })
      expect(answer.status, wellKnown).toBe(404)
      expect(answer.headers.get('location'), wellKnown).toBeNull()
      expect(answer.headers.get('content-type'), wellKnown).toMatch(/^application\/json/)
    }
    expect((await fetch(new URL('/.well-known/security.txt', server.url))).status, 'security.txt still served').toBe(
      200,
    )
  })
})
