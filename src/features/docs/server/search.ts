import { createFromSource } from 'fumadocs-core/search/server'
import { createChineseTokenizer } from './chinese-tokenizer'
import { docsSource } from './source'

/**
 * Full-text search over the docs, one index per language, each searched in its own language. Built on first use
 * and kept for the life of the process (the content only changes with a new build).
 */
export const docsSearch = createFromSource(docsSource, {
  localeMap: {
    en: { language: 'english' },
    zh: { components: { tokenizer: createChineseTokenizer() }, search: { threshold: 0, tolerance: 0 } },
  },
})
