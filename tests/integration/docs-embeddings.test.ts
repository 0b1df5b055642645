import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createEmbeddingIndex, type DocsPassage } from '#/features/docs/server/embedding-index'
import { createAiProvider } from '#/server/ai/provider'
import { type FakeOpenAi, fakeModelId, startFakeOpenAi } from '../support/fake-openai'

// "Ask the docs" with AI_EMBEDDING_MODEL: passages found by meaning through the provider's embeddings API (the
// scripted server's embeddings are bags of words, so texts sharing words are near).
const sections: DocsPassage[] = [
  { title: 'Deployment', url: '/en/docs/deployment', text: 'Deploy the app as a Docker image behind a reverse proxy.' },
  {
    title: 'Deployment',
    url: '/en/docs/deployment',
    text: 'Each Docker image reads its settings from environment variables.',
  },
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
    const found = await docs.search('How do I deploy a Docker image of the app?', 2)
    expect(found.map((passage) => passage.url)[0]).toBe('/en/docs/deployment')
    expect(found[0]?.text, 'both passages of the page').toContain('Deploy the app as a Docker image')
    expect(found[0]?.text, 'both passages of the page').toContain('Each Docker image reads its settings')
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
    await expect(docs.search('deployment', 1)).rejects.toThrow()
    await expect(docs.search('deployment', 1)).rejects.toThrow()
    expect(loads, 'a failure is not remembered').toBe(2)
  })
})
