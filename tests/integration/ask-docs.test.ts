import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { answerDocsQuestion } from '#/features/docs/server/ask-docs'
import type { DocsPassage } from '#/features/docs/server/embedding-index'
import type { Locale } from '#/lib/i18n'
import { createAiProvider } from '#/server/ai/provider'
import { aiRequests } from '#/server/db/schema'
import { type FakeOpenAi, fakeModelId, startFakeOpenAi } from '../support/fake-openai'
import { testOrigin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// The docs' search index is built from the compiled docs, which only a build has; these tests give "Ask the docs"
// two pages of their own. Retrieval from the real index runs in tests/e2e/assistant.spec.ts.
const pages: Record<Locale, DocsPassage[]> = {
  en: [
    { title: 'Books', url: '/en/docs/books', text: '# Books\n\nImport books from a CSV file on the Books page.' },
    { title: 'Billing', url: '/en/docs/billing', text: '# Billing\n\nPlans and their limits.' },
  ],
  zh: [{ title: '图书', url: '/zh/docs/books', text: '# 图书\n\n在图书页面从 CSV 文件导入图书。' }],
}
const retrieve = async (question: string, lang: Locale) =>
  pages[lang].filter((page) =>
    question
      .toLowerCase()
      .split(/\W+/)
      .some((word) => word.length >= 3 && page.text.toLowerCase().includes(word)),
  )

interface Asked {
  status: number
  chunks: { type: string; delta?: string; url?: string; title?: string; errorText?: string }[]
  text: string
  refusal?: { code: string; message: string }
  retryAfter: string | null
}

describe.each(coreEngines)('"Ask the docs" on %s', (engine) => {
  let database: FreshDatabase
  let fake: FakeOpenAi
  const db = () => database.connection.db

  const ask = async (
    body: unknown,
    options: { ip?: string; perMinute?: number; provider?: 'fake' | 'none' | 'down'; origin?: string } = {},
  ): Promise<Asked> => {
    const provider =
      options.provider === 'none'
        ? undefined
        : createAiProvider({
            baseURL: options.provider === 'down' ? 'http://127.0.0.1:9/v1' : fake.url,
            model: fakeModelId,
          })
    const response = await answerDocsQuestion(
      new Request(`${testOrigin}/api/ask-docs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: options.origin ?? testOrigin },
        body: JSON.stringify(body),
      }),
      {
        db: db(),
        clientIp: options.ip ?? '203.0.113.1',
        provider,
        questionsPerMinute: options.perMinute ?? 100,
        trustedOrigins: [testOrigin],
        retrieve,
      },
    )
    const raw = await response.text()
    const retryAfter = response.headers.get('retry-after')
    if (!response.headers.get('content-type')?.includes('text/event-stream')) {
      return { status: response.status, chunks: [], text: '', refusal: JSON.parse(raw), retryAfter }
    }
    const chunks = raw
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice('data: '.length)))
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('')
    return { status: response.status, chunks, text, retryAfter }
  }
  const docsTokens = () => db().select().from(aiRequests).where(eq(aiRequests.surface, 'docs'))

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    fake = await startFakeOpenAi()
  })
  beforeEach(() => fake.reset())
  afterAll(async () => {
    await fake?.close()
    await database.dispose()
  })

  it('streams an answer written from the pages it found, cites them, and records its tokens for the site', async () => {
    fake.script({
      match: 'csv',
      turns: [
        {
          text: 'Use the import on the Books page ([Books](/en/docs/books)).',
          usage: { promptTokens: 80, completionTokens: 12 },
        },
      ],
    })
    const asked = await ask({ question: 'How do I import a CSV file of books?', locale: 'en' })
    expect(asked.status).toBe(200)
    expect(asked.text).toBe('Use the import on the Books page ([Books](/en/docs/books)).')
    expect(asked.chunks.filter((chunk) => chunk.type === 'source-url').map((chunk) => chunk.url)).toEqual([
      '/en/docs/books',
    ])
    const system = (fake.chatRequests[0]?.messages[0] ?? {}) as { role: string; content: string }
    expect(system.role).toBe('system')
    expect(system.content, 'the model is given the page it cites').toContain('Import books from a CSV file')
    expect(await docsTokens()).toEqual([
      expect.objectContaining({ organizationId: null, inputTokens: 80, outputTokens: 12, outcome: 'completed' }),
    ])
  })

  it('answers a question in Chinese from the Chinese pages', async () => {
    fake.script({ match: '导入', turns: [{ text: '在图书页面导入。' }] })
    const asked = await ask({ question: '如何从 CSV 导入图书？', locale: 'zh' })
    expect(asked.text).toBe('在图书页面导入。')
    expect(asked.chunks.find((chunk) => chunk.type === 'source-url')?.url).toBe('/zh/docs/books')
  })

  it('limits questions per address, in the asker’s language', async () => {
    const first = await ask({ question: 'csv?', locale: 'en' }, { ip: '203.0.113.9', perMinute: 1 })
    expect(first.status).toBe(200)
    const second = await ask({ question: 'csv?', locale: 'zh' }, { ip: '203.0.113.9', perMinute: 1 })
    expect(second.status).toBe(429)
    expect(second.refusal?.message).toMatch(/[\u4e00-\u9fff]/)
    expect(Number(second.retryAfter)).toBeGreaterThan(0)
    const elsewhere = await ask({ question: 'csv?', locale: 'en' }, { ip: '203.0.113.10', perMinute: 1 })
    expect(elsewhere.status, 'another address may still ask').toBe(200)
  })

  it('refuses what it cannot answer, clearly, without calling the provider', async () => {
    expect((await ask({ question: '   ', locale: 'en' })).refusal).toEqual({
      code: 'QUESTION_EMPTY',
      message: 'Write a question first.',
    })
    expect((await ask({ question: 'x'.repeat(501), locale: 'en' })).refusal?.code).toBe('QUESTION_TOO_LONG')
    const notConfigured = await ask({ question: 'csv?', locale: 'zh' }, { provider: 'none' })
    expect(notConfigured.status).toBe(503)
    expect(notConfigured.refusal).toEqual({ code: 'AI_NOT_CONFIGURED', message: 'AI 尚未配置' })
    expect((await ask({ question: 'csv?', locale: 'en' }, { origin: 'https://elsewhere.example' })).status).toBe(403)
    expect(fake.chatRequests).toHaveLength(0)
  })

  it('says the provider failed when it is down, and records no tokens', async () => {
    const before = (await docsTokens()).length
    const asked = await ask({ question: 'csv?', locale: 'en' }, { provider: 'down' })
    expect(asked.chunks.find((chunk) => chunk.type === 'error')?.errorText).toBe(
      'The AI provider could not answer. Nothing was saved; try again in a moment.',
    )
    expect((await docsTokens()).length).toBe(before)
  })
})
