import type { Tokenizer } from 'zbsearch'

/**
 * Chinese has no spaces between words, so the default tokenizer would index whole sentences. Intl.Segmenter
 * (ICU's dictionary-based word breaking, built into Node) splits 部署到生产环境 into 部署 / 到 / 生产 / 环境;
 * Latin words inside Chinese text stay whole and are lower-cased.
 */
export function createChineseTokenizer(): Tokenizer {
  const segmenter = new Intl.Segmenter('zh-CN', { granularity: 'word' })
  return {
    language: 'chinese',
    normalizationCache: new Map(),
    tokenize(raw) {
      if (typeof raw !== 'string') return [raw]
      const tokens: string[] = []
      for (const { segment, isWordLike } of segmenter.segment(raw.toLowerCase())) {
        if (isWordLike) tokens.push(segment)
      }
      return tokens
    },
  }
}
