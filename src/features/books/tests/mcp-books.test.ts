import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { eq } from 'drizzle-orm'
import { type Server, serve } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookMcpTools } from '#/features/books/server/mcp-tools'
import { books, rateLimits } from '#/server/db/schema'
import { answerMcpRequest } from '#/server/mcp'
import { apiKeyCallLimit } from '#/server/rate-limit'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { serverApp } from '../server/app'

interface ToolAnswer {
  isError?: boolean
  content: { type: string; text: string }[]
  structuredContent?: Record<string, unknown>
}

describe.each(engines)('the MCP server’s book tools on %s', (engine) => {
  let database: FreshDatabase
  let h: ReturnType<typeof organizationHarness>
  let server: Server
  let endpoint: URL
  let olga: Person
  let rita: Person
  let libraryId: string
  const db = () => database.connection.db

  /** An MCP client over HTTP, as Claude Desktop or an agent connects: the key in x-api-key or as a bearer token. */
  const connect = async (key: string, as: 'x-api-key' | 'bearer' = 'x-api-key') => {
    const client = new Client({ name: 'hatch-test', version: '1.0.0' })
    const headers: Record<string, string> = as === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key }
    await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }))
    return client
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolAnswer
  const createKey = async (person: Person, name: string) => {
    const answer = await h.call<{ id: string; key: string }>('/api-key/create', {
      body: { name },
      cookie: person.cookie,
    })
    expect(answer.status, 'the key is created').toBe(200)
    return answer.body
  }
  const titlesIn = async (organizationId: string) =>
    (await db().select({ title: books.title }).from(books).where(eq(books.organizationId, organizationId))).map(
      (row) => row.title,
    )

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Keyholder')
    rita = await h.signUp('Rita Keyreader')
    libraryId = await h.createOrganization(olga, 'Key Library', 'key-library')
    const role = await h.call('/organization/create-role', {
      body: { organizationId: libraryId, role: 'reader', permission: { book: ['read'] } },
      cookie: olga.cookie,
    })
    expect(role.status).toBe(200)
    await h.join(libraryId, olga, rita, 'reader')
    server = serve({
      port: 0,
      hostname: '127.0.0.1',
      silent: true,
      fetch: (request) => answerMcpRequest(request, { db: db(), clientIp: '127.0.0.1', toolSets: [bookMcpTools] }),
    })
    await server.ready()
    endpoint = new URL('/api/mcp', server.url)
  })
  afterAll(async () => {
    await server?.close(true)
    await database.dispose()
  })

  it('are the tools books’ server manifest gives the MCP server (src/routes/api/mcp.ts registers them after the docs’)', async () => {
    expect(await serverApp.mcpTools?.()).toBe(bookMcpTools)
  })

  it('through the official SDK client: offered to a key, each called with valid arguments, invalid ones as tool errors', async () => {
    // A person of their own, so the organization's books are only those this test writes.
    const conny = await h.signUp('Conny Conformance')
    await h.createOrganization(conny, 'Conformance Library', 'conformance-library')
    const keyed = await connect((await createKey(conny, 'SDK client')).key, 'bearer')
    expect((await keyed.listTools()).tools.map((tool) => tool.name)).toEqual(['list_books', 'get_book', 'create_book'])
    const valid: [string, Record<string, unknown>][] = [
      ['create_book', { title: 'Conformance', authors: ['SDK'] }],
      ['list_books', { query: 'conformance' }],
    ]
    for (const [name, args] of valid) {
      const answer = await call(keyed, name, args)
      expect(answer.isError, `${name}: ${answer.content[0]?.text}`).toBeFalsy()
    }
    const listed = await call(keyed, 'list_books', {})
    const [book] = (listed.structuredContent?.items ?? []) as { id: string; title: string }[]
    expect(book?.title).toBe('Conformance')
    const read = await call(keyed, 'get_book', { id: book?.id })
    expect(read.structuredContent?.authors).toEqual(['SDK'])

    // Since the 2025-11-25 revision, input the tool refuses is a tool error (isError), so the model can try again.
    const invalid: [string, Record<string, unknown>][] = [
      ['list_books', { limit: 0 }],
      ['get_book', {}],
      ['create_book', { title: ' ', isbn: '123' }],
    ]
    for (const [name, args] of invalid) {
      const answer = await call(keyed, name, args)
      expect(answer.isError, `${name} with ${JSON.stringify(args)}`).toBe(true)
      expect(answer.content[0]?.text, name).toBeTruthy()
    }
    await keyed.close()

    // Without a key the book tools are not offered: calling one is the protocol error -32602, which names the key.
    const anonymous = new Client({ name: 'hatch-test', version: '1.0.0' })
    await anonymous.connect(new StreamableHTTPClientTransport(endpoint))
    const keyless = await anonymous.callTool({ name: 'list_books', arguments: {} }).catch((error: unknown) => error)
    expect(keyless).toBeInstanceOf(McpError)
    expect((keyless as McpError).code).toBe(-32602)
    expect((keyless as McpError).message).toMatch(/API key/)
    await anonymous.close()
  })

  it('lists the book tools to a key, and creates, finds and reads books in the owner’s active organization', async () => {
    const client = await connect((await createKey(olga, 'Agent')).key, 'bearer')
    const tools = (await client.listTools()).tools.map((tool) => tool.name)
    expect(tools).toEqual(expect.arrayContaining(['list_books', 'get_book', 'create_book']))
    const created = await call(client, 'create_book', {
      title: 'The Left Hand of Darkness',
      authors: ['Ursula K. Le Guin'],
      publishedYear: 1969,
      tags: ['classic'],
    })
    expect(created.isError, created.content[0]?.text).toBeFalsy()
    expect(created.structuredContent?.title).toBe('The Left Hand of Darkness')
    expect(await titlesIn(libraryId), 'written to the organization the owner has active').toContain(
      'The Left Hand of Darkness',
    )
    const found = await call(client, 'list_books', { query: 'left hand' })
    const items = found.structuredContent?.items as { id: string; title: string }[]
    expect(items.map((item) => item.title)).toEqual(['The Left Hand of Darkness'])
    const read = await call(client, 'get_book', { id: items[0]?.id })
    expect(read.structuredContent?.authors).toEqual(['Ursula K. Le Guin'])
    await client.close()
  })

  it('refuses create_book to a member whose roles do not grant it, and writes nothing', async () => {
    const client = await connect((await createKey(rita, 'Reader agent')).key)
    const before = await titlesIn(libraryId)
    const refused = await call(client, 'create_book', { title: 'Not allowed' })
    expect(refused.isError).toBe(true)
    expect(refused.content[0]?.text).toMatch(/not allowed|permission/i)
    expect(await titlesIn(libraryId)).toEqual(before)
    const listed = await call(client, 'list_books', {})
    expect(listed.isError, 'reading is what the reader role grants').toBeFalsy()
    await client.close()
  })

  it('answers bad input with the reasons per field, and writes nothing', async () => {
    const client = await connect((await createKey(olga, 'Careless agent')).key)
    const before = await titlesIn(libraryId)
    const refused = await call(client, 'create_book', { title: ' ', isbn: '123', publishedYear: 3000 })
    expect(refused.isError).toBe(true)
    expect(refused.content[0]?.text).toContain('title:')
    expect(refused.content[0]?.text).toContain('isbn:')
    expect(refused.content[0]?.text).toContain('publishedYear:')
    expect(await titlesIn(libraryId)).toEqual(before)
    const missing = await call(client, 'get_book', { id: 'no-such-book' })
    expect(missing.isError).toBe(true)
    await client.close()
  })

  it('counts one use of the key per tool call, not one per check inside it', async () => {
    const created = await createKey(olga, 'Counted agent')
    const client = await connect(created.key)
    const uses = async () =>
      (
        await db()
          .select()
          .from(rateLimits)
          .where(eq(rateLimits.key, `api-key:${created.id}`))
      )[0]?.count
    // Connecting makes requests of its own (and may open its event stream after connect returns): count from a call.
    await call(client, 'list_books', {})
    const before = await uses()
    const answer = await call(client, 'create_book', { title: 'Counted once' })
    expect(answer.isError, answer.content[0]?.text).toBeFalsy()
    expect(await uses(), 'the endpoint checks the key; the procedures it calls do not check it again').toBe(
      (before ?? 0) + 1,
    )
    await client.close()
  })

  it('refuses a key past its calls for the minute with 429, Retry-After and words in the client’s language', async () => {
    const created = await createKey(olga, 'Busy agent')
    const client = await connect(created.key)
    await call(client, 'list_books', {})
    await client.close()
    await db()
      .update(rateLimits)
      .set({ count: apiKeyCallLimit.limit })
      .where(eq(rateLimits.key, `api-key:${created.id}`))
    const refused = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'x-api-key': created.key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'accept-language': 'zh-CN',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    const body = (await refused.json()) as { error: { message: string } }
    expect(body.error.message).toMatch(/[\u4e00-\u9fff]/)
  })

  it('refuses a JSON-RPC batch, which would pass many calls as one use of the key', async () => {
    const { key } = await createKey(olga, 'Batching agent')
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'create_book', arguments: { title: `Batched ${id}` } },
    })
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify([call(1), call(2), call(3)]),
    })
    expect(answer.status).toBe(400)
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/batches are not accepted/)
    expect((await titlesIn(libraryId)).filter((title) => title.startsWith('Batched'))).toEqual([])
  })

  it('answers 401 to a revoked or unknown key, whatever it asks', async () => {
    const key = await createKey(olga, 'Soon revoked')
    const client = await connect(key.key)
    expect((await call(client, 'list_books', {})).isError).toBeFalsy()
    const revoked = await h.call('/api-key/delete', { body: { keyId: key.id }, cookie: olga.cookie })
    expect(revoked.status).toBe(200)
    const list = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': key.key,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(list.status).toBe(401)
    expect(list.headers.get('www-authenticate'), 'RFC 9110: a 401 carries its challenge').toBe(
      'Bearer realm="mcp", error="invalid_token"',
    )
    await expect(connect('hatch_not-a-real-key')).rejects.toThrow(/401|not valid/)
    await client.close()
  })

  it('answers as the specification says: unknown tools -32602, a message without method -32600, no listChanged', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      })
    const { key } = await createKey(olga, 'Strict agent')
    const unknown = await post(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      { 'x-api-key': key },
    )
    expect(await unknown.json()).toMatchObject({ id: 7, error: { code: -32602 } })
    // Without a key the book tools are not offered, so calling one is calling an unknown tool.
    const keyless = await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'list_books' } })
    const keylessBody = (await keyless.json()) as { error: { code: number; message: string } }
    expect(keylessBody.error.code).toBe(-32602)
    expect(keylessBody.error.message).toMatch(/API key/)
    const noMethod = await post({ jsonrpc: '2.0', id: 9 })
    expect(noMethod.status).toBe(400)
    expect(await noMethod.json()).toMatchObject({ id: 9, error: { code: -32600 } })
    const unparsable = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    })
    expect(await unparsable.json(), 'JSON that does not parse stays -32700').toMatchObject({ error: { code: -32700 } })
    const client = await connect(key)
    expect(client.getServerCapabilities()?.tools?.listChanged, 'a stateless server can never send it').toBeFalsy()
    await client.close()
  })
})
