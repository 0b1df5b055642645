import { cosineSimilarity, type EmbeddingModel, embed, embedMany } from 'ai'

/** A part of the docs an answer may draw on, with the page it cites. */
export interface DocsPassage {
  title: string
  /** The page's path in its language, e.g. /en/docs/integrations. */
  url: string
  text: string
}

interface EmbeddedPassage {
  passage: DocsPassage
  embedding: number[]
}

/**
 * Passages found by meaning: each is embedded once, on the first question (the docs change only with a build), and
 * each question is embedded and compared with them. A failed first embedding is not kept; the next question retries.
 */
export function createEmbeddingIndex(model: EmbeddingModel, load: () => Promise<DocsPassage[]>) {
  let embedded: Promise<EmbeddedPassage[]> | undefined
  const passages = () => {
    if (!embedded) {
      const attempt = (async () => {
        const loaded = await load()
        const { embeddings } = await embedMany({ model, values: loaded.map((passage) => passage.text), maxRetries: 1 })
        return loaded.map((passage, index) => ({ passage, embedding: embeddings[index] ?? [] }))
      })()
      attempt.catch(() => {
        if (embedded === attempt) embedded = undefined
      })
      embedded = attempt
    }
    return embedded
  }
  return {
    /** The passages nearest `question`, merged per page, the best page first, at most `pages` pages. */
    async search(question: string, pages: number): Promise<DocsPassage[]> {
      // The docs first (at once after the first question): a failed attempt is settled before anyone asks again.
      const all = await passages()
      const { embedding } = await embed({ model, value: question, maxRetries: 1 })
      const ranked = all
        .map((entry) => ({ entry, similarity: cosineSimilarity(embedding, entry.embedding) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, pages * 2)
      const byPage = new Map<string, DocsPassage>()
      for (const { entry } of ranked) {
        const known = byPage.get(entry.passage.url)
        if (known) known.text = `${known.text}\n\n${entry.passage.text}`
        else if (byPage.size < pages) byPage.set(entry.passage.url, { ...entry.passage })
      }
      return [...byPage.values()]
    },
  }
}
