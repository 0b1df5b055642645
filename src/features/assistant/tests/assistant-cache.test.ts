import { describe, expect, it } from 'vitest'
import { cacheControlFor, personalCacheControl } from '#/server/cache-control'

describe("the assistant's answers and caches", () => {
  it('keeps an answer written for one caller out of every shared cache', () => {
    expect(cacheControlFor('/api/assistant', 'public, max-age=60')).toBe(personalCacheControl)
    expect(cacheControlFor('/api/assistants', 'public, max-age=60'), 'a look-alike path is not it').toBeUndefined()
  })
})
