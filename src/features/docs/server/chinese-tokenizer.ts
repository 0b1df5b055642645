import type { Tokenizer } from 'zbsearch'

/**
 * Chinese has no spaces between words, so the default tokenizer would index whole sentences. Intl.Segmenter
 * (ICU's dictionary-based word breaking, built into Node) splits 部署到生产环境 into 部署 / 到 / 生产 / 环境;
 * Latin words inside Chinese text stay whole and are lower-cased.
 */
export function createChineseTokenizer(): Tokenizer {
  // Made on first use: loading ICU's Chinese dictionary takes tens of milliseconds, paid otherwise at every start.
  let segmenter: Intl.Segmenter | undefined
  return {
    language: 'chinese',
    normalizationCache: new Map(),
    tokenize(raw) {
      if (typeof raw !== 'string') return [raw]
      const tokens: string[] = []
      segmenter ??= new Intl.Segmenter('zh-CN', { granularity: 'word' })
      for (const { segment, isWordLike } of segmenter.segment(raw.toLowerCase())) {
        if (isWordLike) tokens.push(segment)
      }
      return tokens
    },
  }
}
