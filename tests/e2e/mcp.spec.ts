import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { signUpNewAccount } from './accounts'
import { expect, test, visit } from './fixtures'

interface ToolAnswer {
  isError?: boolean
  content: { type: string; text: string }[]
  structuredContent?: Record<string, unknown>
}

/** An MCP client connected to this server's /api/mcp, as an assistant app would connect. */
async function mcpClient(baseURL: string | undefined, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'hatch-e2e', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', baseURL), { requestInit: { headers } }))
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolAnswer
  return { client, call }
}

test.describe('the MCP server', () => {
  test('offers the docs to anyone: a search cites pages that open, and a page reads as Markdown', async ({
    page,
    baseURL,
  }) => {
    const { client, call } = await mcpClient(baseURL)
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_docs', 'get_doc_page'])

    const english = await call('search_docs', { query: 'passkey', language: 'en' })
    const results = english.structuredContent?.results as { kind: string; text: string; url: string }[]
    const authentication = results.find((result) => result.kind === 'page' && result.text === 'Authentication')
    expect(authentication?.url).toBe(`${baseURL}/en/docs/authentication`)
    expect(
      results.every((result) => !result.text.includes('<mark>')),
      'plain text, no highlight tags',
    ).toBe(true)
    await visit(page, new URL(authentication?.url ?? '').pathname)
    await expect(page.getByRole('heading', { level: 1, name: 'Authentication' })).toBeVisible()

    const chinese = await call('search_docs', { query: '通行密钥', language: 'zh' })
    const chineseResults = chinese.structuredContent?.results as { text: string; url: string }[]
    expect(chineseResults.map((result) => result.url)).toContain(`${baseURL}/zh/docs/authentication`)

    const integrations = await call('get_doc_page', { path: '/zh/docs/integrations', language: 'zh' })
    expect(integrations.isError).toBeFalsy()
    expect(integrations.content[0]?.text).toMatch(/^# 集成/)
    const missing = await call('get_doc_page', { path: 'no/such/page', language: 'en' })
    expect(missing.isError).toBe(true)
    expect(missing.content[0]?.text).toContain('No documentation page')
    await client.close()

    const chineseClient = await mcpClient(baseURL, { 'accept-language': 'zh-CN,zh;q=0.9' })
    const missingInChinese = await chineseClient.call('get_doc_page', { path: 'no/such/page', language: 'zh' })
    expect(missingInChinese.content[0]?.text, 'refusals in the language the client asks for').toContain('没有位于')
    await chineseClient.client.close()
  })

  // What an installed app's tools do with a key is the app's own tests' (src/features/<app>/tests/e2e).
  test('with a key from the Account page, an assistant connects and reads the docs; a wrong key is refused', async ({
    page,
    baseURL,
    request,
  }) => {
    test.slow() // sign-up, then a key
    await signUpNewAccount(page)
    const section = page.getByRole('region', { name: 'API keys' })
    await section.getByLabel('Key name').fill('Assistant')
    await section.getByRole('button', { name: 'Create key' }).click()
    const apiKey = (await section.getByTestId('new-api-key-value').textContent()) ?? ''
    expect(apiKey).toMatch(/^hatch_/)

    const { client, call } = await mcpClient(baseURL, { authorization: `Bearer ${apiKey}` })
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['search_docs', 'get_doc_page']),
    )
    const read = await call('get_doc_page', { path: 'integrations', language: 'en' })
    expect(read.isError, read.content[0]?.text).toBeFalsy()
    expect(read.content[0]?.text).toMatch(/^# Integrations/)
    await client.close()

    const wrongKey = await request.post('/api/mcp', {
      headers: { 'x-api-key': 'hatch_wrong', accept: 'application/json, text/event-stream' },
      data: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    })
    expect(wrongKey.status(), 'a wrong key is refused whatever it asks').toBe(401)
  })
})
