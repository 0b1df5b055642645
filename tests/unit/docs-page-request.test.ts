import { describe, expect, it } from 'vitest'
import { docsPageRequest } from '#/features/docs/schemas'

describe('docs page requests', () => {
  it('accept slugs and a known language', () => {
    expect(docsPageRequest.parse({ slugs: [], lang: 'en' })).toEqual({ slugs: [], lang: 'en' })
    expect(docsPageRequest.parse({ slugs: ['development', 'testing'], lang: 'zh' }).slugs).toHaveLength(2)
  })

  it('reject slugs that are not a list of strings, naming the field', () => {
    for (const slugs of ['development', [1, 2], null, undefined]) {
      const result = docsPageRequest.safeParse({ slugs, lang: 'en' })
      expect(result.success, JSON.stringify(slugs)).toBe(false)
      expect(result.error?.issues[0]?.path).toEqual(expect.arrayContaining(['slugs']))
    }
  })

  it('reject a language the site does not have', () => {
    const result = docsPageRequest.safeParse({ slugs: [], lang: 'fr' })
    expect(result.error?.issues[0]?.message).toBe('lang must be one of: en, zh')
  })
})
