import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createEmbeddingIndex, type DocsPassage } from '#/features/docs/server/embedding-index'
import { createAiProvider } from '#/server/ai/provider'
import { type FakeOpenAi, fakeModelId, startFakeOpenAi } from '../support/fake-openai'

// "Ask the docs" with AI_EMBEDDING_MODEL: passages found by meaning through the provider's embeddings API (the
// scripted server's embeddings are bags of words, so texts sharing words are near).
const sections: DocsPassage[] = [
  { title: 'Books', url: '/en/docs/books', text: 'Import books from a CSV file; export them again as CSV.' },
  { title: 'Books', url: '/en/docs/books', text: 'Each book has a title, authors, an ISBN and tags.' },
  { title: 'Billing', url: '/en/docs/billing', text: 'Plans, seats, invoices and the monthly AI request allowance.' },
  { title: 'Organizations', url: '/en/docs/organizations', text: 'Invite members and give them roles.' },
  { title: '组织', url: '/zh/docs/organizations', text: '邀请成员并为他们分配角色。' },
]

describe('retrieval by embeddings', () => {
  let fake: FakeOpenAi
  const index = () => {
    const provider = createAiProvider({ baseURL: fake.url, model: fakeModelId, embeddingModel: 'fake-embedding' })
    if (!provider.embeddingModel) throw new Error('the provider has no embedding model')
    return createEmbeddingIndex(provider.embeddingModel, async () => sections)
  }

  beforeAll(async () => {
    fake = await startFakeOpenAi()
  })
  beforeEach(() => fake.reset())
  afterAll(() => fake?.close())

  it('finds the pages nearest a question, merges a page’s passages, and embeds the docs only once', async () => {
    const docs = index()
    const found = await docs.search('How do I import a CSV file of books?', 2)
    expect(found.map((passage) => passage.url)[0]).toBe('/en/docs/books')
    expect(found[0]?.text, 'both passages of the page').toContain('Import books from a CSV file')
    expect(found).toHaveLength(2)

    const again = await docs.search('How do I invite members?', 1)
    expect(again.map((passage) => passage.url)).toEqual(['/en/docs/organizations'])
    const embeddedTexts = fake.embeddingRequests.map((request) => request.input.length)
    expect(embeddedTexts, 'the docs once, then one question each time').toEqual(
      expect.arrayContaining([sections.length, 1, 1]),
    )
    expect(embeddedTexts.filter((count) => count === sections.length)).toHaveLength(1)
    expect(fake.embeddingRequests[0]?.model).toBe('fake-embedding')
  })

  it('finds Chinese passages for a Chinese question', async () => {
    const found = await index().search('如何邀请成员？', 1)
    expect(found.map((passage) => passage.url)).toEqual(['/zh/docs/organizations'])
  })

  it('tries the docs again on the next question when the provider failed the first time', async () => {
    const provider = createAiProvider({ baseURL: 'http://127.0.0.1:9/v1', model: fakeModelId, embeddingModel: 'x' })
    if (!provider.embeddingModel) throw new Error('the provider has no embedding model')
    let loads = 0
    const docs = createEmbeddingIndex(provider.embeddingModel, async () => {
      loads++
      return sections
    })
    await expect(docs.search('books', 1)).rejects.toThrow()
    await expect(docs.search('books', 1)).rejects.toThrow()
    expect(loads, 'a failure is not remembered').toBe(2)
  })
})
