import type { EmbeddingModel } from 'ai'
import type { Locale } from '#/lib/i18n'
import { createEmbeddingIndex, type DocsPassage } from './embedding-index'
import { pageMarkdown } from './llms'
import { docsSearch } from './search'
import { type DocsPage, docsSource } from './source'

const pagesPerAnswer = 4
const charactersPerPage = 4000

/** Words that say what kind of question it is, not what it is about. */
const questionWords = new Set([
  ...'about also and are can could did does doing for from get has have how into its more not should that the their'.split(
    ' ',
  ),
  ...'then there these this those use using was what when where which who why will with would you your'.split(' '),
  ...'如何 怎么 怎样 什么 为什么 哪些 哪里 可以 能否 是否 我们 你们 一个 这个 那个 需要'.split(' '),
])

/** Words of a question worth searching for one by one (a whole question rarely matches the index as it is). */
function searchTermsOf(question: string, lang: Locale): string[] {
  const segmenter = new Intl.Segmenter(lang, { granularity: 'word' })
  const words = [...segmenter.segment(question)]
    .filter((segment) => segment.isWordLike)
    .map((segment) => segment.segment.toLowerCase())
    .filter((word) => !questionWords.has(word))
    .filter((word) => (/^[a-z0-9_]+$/.test(word) ? word.length >= 3 : word.length >= 2))
  return [...new Set(words)].slice(0, 12)
}

function pageOfUrl(url: string, lang: Locale): DocsPage | undefined {
  const path = url.split('#')[0] ?? ''
  const slugs = path
    .replace(/^\/docs\/?/, '')
    .split('/')
    .filter(Boolean)
  return docsSource.getPage(slugs, lang)
}

async function passageOf(page: DocsPage, lang: Locale): Promise<DocsPassage> {
  const markdown = await pageMarkdown(page, lang)
  return {
    title: page.data.title ?? page.url,
    url: `/${lang}${page.url}`,
    text: markdown.length > charactersPerPage ? `${markdown.slice(0, charactersPerPage)}…` : markdown,
  }
}

/**
 * The pages that best match a question in the docs' own search index, word by word: a page found for several words,
 * and for rarer ones, ranks first. No network, no model: the default when AI_EMBEDDING_MODEL is not set.
 */
async function retrieveBySearchIndex(question: string, lang: Locale): Promise<DocsPassage[]> {
  const scores = new Map<string, { page: DocsPage; score: number }>()
  const terms = searchTermsOf(question, lang)
  for (const term of terms.length > 0 ? terms : [question]) {
    const pages: DocsPage[] = []
    for (const result of await docsSearch.search(term, { locale: lang })) {
      const page = pageOfUrl(result.url, lang)
      if (page && !pages.includes(page)) pages.push(page)
    }
    // A word on every page tells little about which page answers.
    const rarity = 1 / (1 + pages.length / 4)
    pages.slice(0, 10).forEach((page, rank) => {
      const entry = scores.get(page.url) ?? { page, score: 0 }
      entry.score += rarity / (1 + rank / 3)
      scores.set(page.url, entry)
    })
  }
  const best = [...scores.values()].sort((a, b) => b.score - a.score).slice(0, pagesPerAnswer)
  return Promise.all(best.map(({ page }) => passageOf(page, lang)))
}

/** Each page cut at its headings, small enough to embed and to quote. */
async function sectionsOf(lang: Locale): Promise<DocsPassage[]> {
  const sections: DocsPassage[] = []
  for (const page of docsSource.getPages(lang)) {
    const markdown = await pageMarkdown(page, lang)
    for (const part of markdown.split(/\n(?=#{2,3} )/)) {
      const text = part.trim()
      if (text)
        sections.push({ title: page.data.title ?? page.url, url: `/${lang}${page.url}`, text: text.slice(0, 2000) })
    }
  }
  return sections
}

/** One index per language and model, for the life of the process. */
const embeddingIndexes = new Map<string, ReturnType<typeof createEmbeddingIndex>>()

function embeddingIndexFor(model: EmbeddingModel, modelId: string, lang: Locale) {
  const key = `${modelId}\n${lang}`
  let index = embeddingIndexes.get(key)
  if (!index) {
    index = createEmbeddingIndex(model, () => sectionsOf(lang))
    embeddingIndexes.set(key, index)
  }
  return index
}

/** The docs an answer to `question` should be written from: by embeddings when a model is given, else by search. */
export function retrieveDocs(
  question: string,
  lang: Locale,
  embeddings?: { model: EmbeddingModel; modelId: string },
): Promise<DocsPassage[]> {
  return embeddings
    ? embeddingIndexFor(embeddings.model, embeddings.modelId, lang).search(question, pagesPerAnswer)
    : retrieveBySearchIndex(question, lang)
}
