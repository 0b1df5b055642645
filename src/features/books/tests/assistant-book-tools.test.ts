// Books' tools for the console assistant (its server manifest's `assistantTools`): what the model may do with the
// organization's books, as the person chatting. Each tool runs here as the assistant runs it, through the console's
// procedures as that person and in their language; the chat around them (asking first, streaming, storing, limits) is
// the assistant's, tested with tools of its own (src/features/assistant/tests/assistant.test.ts).
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Locale } from '#/lib/i18n'
import type { z } from '#/lib/zod'
import { type AssistantToolSet, ToolRefusal } from '#/server/ai/assistant-tools'
import { authForDatabase } from '#/server/auth/auth'
import { books } from '#/server/db/schema'
import type { Notice } from '#/server/organization-events'
import { inLocale } from '#/server/request-locale'
import { createAppCaller } from '#/server/trpc/root'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { noticeKinds } from '../notices'
import { serverApp } from '../server/app'
import { bookAssistantTools } from '../server/assistant-tools'

/** What the tools told people, as `notify` was given it (and then passed on, to whichever app tells people). */
const told = vi.hoisted(() => [] as { userIds: readonly string[]; notice: Notice }[])
vi.mock('#/server/organization-events', async (importOriginal) => {
  const original = await importOriginal<typeof import('#/server/organization-events')>()
  return {
    ...original,
    notify: async (...args: Parameters<typeof original.notify>) => {
      told.push({ userIds: args[1], notice: args[2] })
      return original.notify(...args)
    },
  }
})

interface FoundBooks {
  books: { id: string; title: string; authors: string[]; publishedYear: number | null; url: string }[]
  more: boolean
}

describe.each(engines)('books’ tools for the console assistant on %s', (engine) => {
  let database: FreshDatabase
  let h: ReturnType<typeof organizationHarness>
  let olga: Person
  let rita: Person
  let victor: Person
  let libraryId: string
  const db = () => database.connection.db

  /** The tools as the assistant gives them to the model for this person (src/features/assistant/server/assistant-chat.ts). */
  const toolsOf = async (person: Person, locale: Locale = 'en') => {
    const headers = new Headers({ cookie: person.cookie, origin: testOrigin })
    const session = await authForDatabase(db()).api.getSession({ headers, query: { disableCookieCache: true } })
    if (!session) throw new Error(`${person.name} is not signed in`)
    const asUser = createAppCaller({
      db: db(),
      headers,
      clientIp: '127.0.0.1',
      method: 'POST',
      verifiedSession: session,
    })
    return bookAssistantTools({ asUser, locale, db: db(), userId: person.id })
  }
  /** One call as the model makes it: its arguments checked against the tool's schema, run in the person's language. */
  const run = async <T = Record<string, unknown>>(
    person: Person,
    name: string,
    input: Record<string, unknown>,
    locale: Locale = 'en',
  ): Promise<T> => {
    const set: AssistantToolSet = await toolsOf(person, locale)
    const definition = set.tools[name]
    // As the AI SDK calls it, with the input it checked (each tool's own type is not known here).
    const execute = definition?.execute as
      | ((input: unknown, options: { toolCallId: string; messages: [] }) => unknown)
      | undefined
    if (!definition || !execute) throw new Error(`no tool ${name}`)
    const parsed = (definition.inputSchema as z.ZodType).parse(input)
    return inLocale(
      locale,
      testOrigin,
      async () => (await execute(parsed, { toolCallId: 'call_test', messages: [] })) as T,
    )
  }
  const refusalOf = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error, 'refused in words the model can pass on').toBeInstanceOf(ToolRefusal)
    return (error as ToolRefusal).message
  }
  const bookTitles = async (organizationId = libraryId) =>
    (await db().select({ title: books.title }).from(books).where(eq(books.organizationId, organizationId))).map(
      (row) => row.title,
    )

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Asker')
    rita = await h.signUp('Rita Reader')
    victor = await h.signUp('Victor Visitor')
    libraryId = await h.createOrganization(olga, 'Asking Library', 'asking-library')
    const role = await h.call('/organization/create-role', {
      body: { organizationId: libraryId, role: 'reader', permission: { book: ['read'] } },
      cookie: olga.cookie,
    })
    expect(role.status).toBe(200)
    await h.join(libraryId, olga, rita, 'reader')
    await h.createOrganization(victor, 'Victor Club', 'victor-club')
  })
  beforeEach(() => {
    told.length = 0
  })
  afterAll(() => database.dispose())

  it('are what books’ server manifest gives the assistant, with instructions that name them', async () => {
    expect(await serverApp.assistantTools?.()).toBe(bookAssistantTools)
    const instructions = (serverApp.assistantInstructions ?? []).join('\n')
    expect(instructions).toContain('search_books')
    expect(instructions).toContain('create_book')
  })

  it('offer search_books and create_book, and the person confirms each create_book before it runs', async () => {
    const set = await toolsOf(olga)
    expect(Object.keys(set.tools).sort()).toEqual(['create_book', 'search_books'])
    expect(set.confirmFirst).toEqual(['create_book'])
  })

  it('create_book writes the book in the person’s active organization, links it in their language and tells them', async () => {
    const created = await run<{ id: string; title: string; url: string }>(olga, 'create_book', {
      title: 'Dune',
      authors: ['Frank Herbert'],
    })
    expect(created).toMatchObject({ title: 'Dune', url: expect.stringMatching(/^\/en\/console\/books\//) })
    expect(created.url).toBe(`/en/console/books/${created.id}`)
    const [row] = await db()
      .select()
      .from(books)
      .where(and(eq(books.id, created.id), eq(books.organizationId, libraryId)))
    expect(row).toMatchObject({ title: 'Dune', authors: ['Frank Herbert'], createdById: olga.id })
    expect(await bookTitles(), 'written once').toEqual(['Dune'])

    expect(told, 'the person is told the assistant added it').toEqual([
      {
        userIds: [olga.id],
        notice: { type: 'assistant_book_created', params: { title: 'Dune' }, link: `/console/books/${created.id}` },
      },
    ])
    const kind = noticeKinds.find((candidate) => candidate.type === 'assistant_book_created')
    expect(kind?.text({ title: 'Dune' }, { locale: 'en' })).toBe('The assistant added “Dune” to your books')
    expect(kind?.text({ title: '沙丘' }, { locale: 'zh' })).toBe('助手已将《沙丘》添加到你的图书中')

    const inChinese = await run<{ url: string }>(olga, 'create_book', { title: '沙丘' }, 'zh')
    expect(inChinese.url).toMatch(/^\/zh\/console\/books\//)
  })

  it('search_books finds the organization’s books by words, with their links, and says when there are more', async () => {
    await run(olga, 'create_book', { title: 'Neuromancer', authors: ['William Gibson'], publishedYear: 1984 })
    const found = await run<FoundBooks>(olga, 'search_books', { query: 'neuromancer' })
    expect(found.more).toBe(false)
    expect(found.books).toEqual([
      {
        id: expect.any(String),
        title: 'Neuromancer',
        authors: ['William Gibson'],
        publishedYear: 1984,
        url: `/en/console/books/${found.books[0]?.id}`,
      },
    ])
    const newest = await run<FoundBooks>(olga, 'search_books', { limit: 1 })
    expect(
      newest.books.map((book) => book.title),
      'an empty query lists the newest',
    ).toEqual(['Neuromancer'])
    expect(newest.more).toBe(true)
    const elsewhere = await run<FoundBooks>(victor, 'search_books', { query: 'neuromancer' })
    expect(elsewhere.books, 'another organization’s books are never found').toEqual([])
  })

  it('refuses create_book to a member without book create, in their language, and writes nothing', async () => {
    const refusal = await refusalOf(run(rita, 'create_book', { title: '三体' }, 'zh'))
    expect(refusal, 'the refusal is the console’s, in Chinese').toMatch(/[\u4e00-\u9fff]/)
    expect(refusal, 'it names what is missing').toContain('book')
    expect(await bookTitles()).not.toContain('三体')
    expect(told, 'nobody is told of a book not added').toEqual([])
    const read = await run<FoundBooks>(rita, 'search_books', { query: 'dune' })
    expect(
      read.books.map((book) => book.title),
      'reading is what the reader role grants',
    ).toEqual(['Dune'])
  })

  it('answers a book the console would refuse with the reasons per field, and writes nothing', async () => {
    const before = await bookTitles()
    const refusal = await refusalOf(run(olga, 'create_book', { title: ' ', isbn: '123', publishedYear: 3000 }))
    expect(refusal).toContain('title:')
    expect(refusal).toContain('isbn:')
    expect(refusal).toContain('publishedYear:')
    expect(await bookTitles()).toEqual(before)
    expect(told).toEqual([])
  })
})
