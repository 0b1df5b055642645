import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

// Books on the MCP server (its server manifest's `mcpTools`; the docs' tools are the core's: tests/e2e/mcp.spec.ts).

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

test.describe('books on the MCP server', () => {
  test('the docs tools read the books page, which books brings', async ({ baseURL }) => {
    const { client, call } = await mcpClient(baseURL)
    const books = await call('get_doc_page', { path: '/zh/docs/books', language: 'zh' })
    expect(books.isError).toBeFalsy()
    expect(books.content[0]?.text).toMatch(/^# 图书/)
    await client.close()
  })

  test('with a key from the Account page, an assistant creates a book that shows in Books', async ({
    page,
    baseURL,
  }) => {
    test.slow() // sign-up, a key, then the console
    await signUpNewAccount(page)
    const section = page.getByRole('region', { name: 'API keys' })
    await section.getByLabel('Key name').fill('Assistant')
    await section.getByRole('button', { name: 'Create key' }).click()
    const apiKey = (await section.getByTestId('new-api-key-value').textContent()) ?? ''
    expect(apiKey).toMatch(/^hatch_/)

    const { client, call } = await mcpClient(baseURL, { authorization: `Bearer ${apiKey}` })
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['list_books', 'get_book', 'create_book']),
    )
    const created = await call('create_book', { title: 'Written by an assistant', authors: ['Model Context'] })
    expect(created.isError, created.content[0]?.text).toBeFalsy()
    await client.close()

    await visit(page, '/en/console/books')
    await expect(page.getByTestId('book-row').filter({ hasText: 'Written by an assistant' })).toHaveCount(1)
  })
})
