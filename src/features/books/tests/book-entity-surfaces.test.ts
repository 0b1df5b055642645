// Every field of the book's definition (book-entity.ts) reaches every surface: the form, the list's table, the details,
// CSV both ways, the webhook payload, the MCP and assistant tools, the seed and the stored columns. It reads the
// definition rather than naming fields, so a field added to it (docs: "Add a field") is checked too: the add-a-field
// test (tests/integration/add-a-field.test.ts) runs this file in a copy of the project with one field more.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { getTableColumns } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { type Server, serve } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  columnLabelOf,
  csvColumnsOf,
  type EntityField,
  emptyRecordOf,
  isColumn,
  isInDetails,
  isListed,
  keysWhere,
  searchedTextsOf,
  sortableKeysOf,
  textOf,
} from '#/lib/entity'
import { overwriteGetLocale } from '#/paraglide/runtime'
import { answerMcpRequest } from '#/server/mcp'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type BookInput, bookEntity } from '../book-entity'
import { bookSortColumns } from '../search'
import { bookAssistantTools } from '../server/assistant-tools'
import { booksToCsv, parseBooksCsv } from '../server/book-csv'
import { bookEventData } from '../server/book-event-data'
import { bookListColumns } from '../server/book-queries'
import { sampleBook } from '../server/book-seed'
import { bookMcpTools } from '../server/mcp-tools'
import { books } from '../server/schema'
import { BookDetailsProbe, BookFormProbe, BookTableProbe } from './book-surface-probes'

overwriteGetLocale(() => 'en')

/** Values each kind may take; a field gets the first its own rule accepts (an ISBN is text, but not any text). */
const candidates: Record<EntityField['kind'], readonly unknown[]> = {
  text: ['Sample words 样例', '9780306406157', 'sample'],
  longText: ['Several words\nover two lines'],
  list: ['One, Two'],
  integer: ['2001', '1', '0'],
  url: ['https://example.com/sample'],
  choice: [],
}

function sampleValueOf(key: string, field: EntityField): unknown {
  for (const candidate of field.kind === 'choice' ? (field.options?.codes ?? []) : candidates[field.kind]) {
    const parsed = field.rule.safeParse(candidate)
    if (parsed.success && parsed.data !== null && !(Array.isArray(parsed.data) && parsed.data.length === 0))
      return parsed.data
  }
  throw new Error(`No sample value passes ${key}'s rule: add one to the candidates for ${field.kind}`)
}

/** A book with every field filled in. */
const filled = emptyRecordOf(
  bookEntity,
  Object.fromEntries(
    bookEntity.keys.map((key) => [key, sampleValueOf(key, bookEntity.fields[key])]),
  ) as Partial<BookInput>,
)
const fields = bookEntity.keys.map((key) => [key, bookEntity.fields[key] as EntityField] as const)
const escaped = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

describe(`every field of the book’s definition (${bookEntity.keys.join(', ')})`, () => {
  it('is a column of the books table, so the definition and the database agree', () => {
    const columns = getTableColumns(books)
    for (const [key, field] of fields) {
      expect(columns, key).toHaveProperty(key)
      const column = columns[key as keyof typeof columns]
      // A field that may be left empty must be a column that may hold nothing (or has a default for it).
      if (!field.required && field.kind !== 'list' && field.kind !== 'longText') expect(column.notNull, key).toBe(false)
    }
  })

  it('is an input of the form, with its label and value', () => {
    const html = renderToStaticMarkup(createElement(BookFormProbe, { book: filled }))
    for (const [key, field] of fields) {
      expect(html, key).toContain(`name="${key}"`)
      expect(html, key).toContain(escaped(field.label()))
      const text = textOf(filled[key])
      if (field.kind === 'choice') expect(html, key).toMatch(new RegExp(`<option value="${text}" selected`))
      else expect(html, key).toContain(escaped(text.split('\n')[0] ?? ''))
    }
  })

  it('orders the list where the definition says so, and the list’s address knows those orders', () => {
    expect(bookSortColumns, 'src/features/books/search.ts lists the sortable fields').toEqual([
      ...sortableKeysOf(bookEntity),
      'createdAt',
      'updatedAt',
    ])
  })

  it('is a column of the list where the definition says so, with its header and value', () => {
    const html = renderToStaticMarkup(createElement(BookTableProbe, { book: filled }))
    // The title's column links to the book's page, which needs the router: the browser specs check it.
    for (const [key, field] of fields.filter(([key, field]) => isColumn(field) && key !== 'title')) {
      expect(html, key).toContain(escaped(columnLabelOf(field)()))
      const shown = field.kind === 'choice' ? (field.options?.name(String(filled[key])) ?? '') : textOf(filled[key])
      for (const part of shown.split(', ')) expect(html, key).toContain(escaped(part))
    }
    expect(keysWhere(bookEntity, isListed), 'the list reads what it shows').toEqual(
      bookEntity.keys.filter((key) => key in bookListColumns),
    )
  })

  it('is on the book’s page where the definition says so', () => {
    const html = renderToStaticMarkup(createElement(BookDetailsProbe, { book: filled }))
    for (const [key, field] of fields.filter(([, field]) => isInDetails(field))) {
      expect(html, key).toContain(escaped(field.label()))
      const shown = field.kind === 'choice' ? (field.options?.name(String(filled[key])) ?? '') : textOf(filled[key])
      expect(html, key).toContain(escaped(shown.split('\n')[0] ?? ''))
    }
  })

  it('goes out to CSV and comes back in as it was', () => {
    const csv = booksToCsv([filled])
    const parsed = parseBooksCsv(csv)
    expect(parsed.issues).toEqual([])
    expect(parsed.books[0]?.book).toEqual(filled)
    const header = csv.slice(1, csv.indexOf('\r\n'))
    const csvFields = fields.filter(([, field]) => field.csv !== false)
    expect(header.split(','), 'one column per field in CSV').toEqual(
      csvColumnsOf(bookEntity).map(({ column }) => column),
    )
    expect(csvColumnsOf(bookEntity).map(({ key }) => key)).toEqual(csvFields.map(([key]) => key))
  })

  it('is in the webhook payload and the seed’s books', () => {
    const now = new Date()
    const payload = bookEventData({
      ...filled,
      id: 'b1',
      organizationId: 'o1',
      isbn13: null,
      searchText: '',
      createdById: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    } as typeof books.$inferSelect)
    for (const [key] of fields.filter(([, field]) => field.webhook !== false))
      expect(payload, key).toHaveProperty(key, filled[key])
    expect(Object.keys(sampleBook(1)).sort()).toEqual([...bookEntity.keys].sort())
  })

  describe('through the MCP server’s and the assistant’s tools', () => {
    let database: FreshDatabase
    let h: ReturnType<typeof organizationHarness>
    let server: Server
    let olga: Person
    const toolFields = fields.filter(([, field]) => field.tool !== false)
    const toolArguments = Object.fromEntries(toolFields.map(([key]) => [key, filled[key] ?? undefined]))

    beforeAll(async () => {
      database = await createFreshDatabase('pglite')
      await database.connection.migrate()
      h = organizationHarness(database.connection.db)
      olga = await h.signUp('Olga Surfaces')
      await h.createOrganization(olga, 'Surface Library', 'surface-library')
      server = serve({
        port: 0,
        hostname: '127.0.0.1',
        silent: true,
        fetch: (request) =>
          answerMcpRequest(request, { db: database.connection.db, clientIp: '127.0.0.1', toolSets: [bookMcpTools] }),
      })
      await server.ready()
    })
    afterAll(async () => {
      await server?.close(true)
      await database?.dispose()
    })

    it('offers each field to the SDK client’s create_book and writes it', async () => {
      const key = await h.call<{ key: string }>('/api-key/create', { body: { name: 'surfaces' }, cookie: olga.cookie })
      const client = new Client({ name: 'hatch-test', version: '1.0.0' })
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/api/mcp', server.url), {
          requestInit: { headers: { 'x-api-key': key.body.key } },
        }),
      )
      const { tools } = await client.listTools()
      const create = tools.find((tool) => tool.name === 'create_book')
      for (const [key] of toolFields) expect(create?.inputSchema.properties, key).toHaveProperty(key)
      const answer = (await client.callTool({ name: 'create_book', arguments: toolArguments })) as {
        isError?: boolean
        structuredContent?: Record<string, unknown>
        content: { text: string }[]
      }
      expect(answer.isError, answer.content[0]?.text).toBeFalsy()
      for (const [key] of toolFields) expect(answer.structuredContent, key).toHaveProperty(key, filled[key])
      await client.close()
    })

    it('orders the list and the CSV by each sortable field, and finds a book by each searchable one', async () => {
      // The book the MCP client wrote, the organization's only one.
      const all = await h.trpc<{ items: { id: string }[] }>('query', 'books.list', olga.cookie, {})
      const created = { data: all.data?.items[0] }
      expect(all.data?.items).toHaveLength(1)
      for (const sort of bookSortColumns) {
        for (const direction of ['asc', 'desc'] as const) {
          const page = await h.trpc<{ items: { id: string }[] }>('query', 'books.list', olga.cookie, {
            sort,
            direction,
          })
          expect(page.error, `${sort} ${direction}`).toBeUndefined()
          expect(
            page.data?.items.map((item) => item.id),
            `${sort} ${direction}`,
          ).toContain(created.data?.id)
          const file = await h.trpc<{ csv: string }>('query', 'books.exportCsv', olga.cookie, { sort, direction })
          expect(file.error, `CSV by ${sort}`).toBeUndefined()
        }
      }
      for (const key of keysWhere(bookEntity, (field) => field.searchable === true && field.tool !== false)) {
        const words = searchedTextsOf(filled[key])[0] ?? ''
        const found = await h.trpc<{ items: { id: string }[] }>('query', 'books.list', olga.cookie, { q: words })
        expect(
          found.data?.items.map((item) => item.id),
          `searching ${key} for ${words}`,
        ).toContain(created.data?.id)
      }
    })

    it('offers each field to the assistant’s create_book', () => {
      const { tools } = bookAssistantTools({} as Parameters<typeof bookAssistantTools>[0])
      const schema = tools.create_book?.inputSchema as { shape?: Record<string, unknown> } | undefined
      for (const [key] of toolFields) expect(schema?.shape, key).toHaveProperty(key)
    })
  })
})
