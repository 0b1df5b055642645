import { describe, expect, it } from 'vitest'
import { bookListSearch } from '../search'

describe('the books list’s URL parameters', () => {
  it('keeps what a list understands and trims the search text', () => {
    expect(
      bookListSearch({
        q: '  dune ',
        language: 'en',
        yearFrom: 1965,
        sort: 'title',
        direction: 'asc',
        page: 3,
        size: 50,
      }),
    ).toEqual({ q: 'dune', language: 'en', yearFrom: 1965, sort: 'title', direction: 'asc', page: 3, size: 50 })
  })

  it('drops a mangled or outdated parameter instead of failing the page, and keeps the rest', () => {
    expect(
      bookListSearch({
        q: 'x'.repeat(201),
        language: 'klingon',
        yearFrom: 1.5,
        yearTo: 10_000,
        sort: 'price',
        direction: 'sideways',
        tag: { nested: true },
        page: 0,
        size: 30,
        after: 'a cursor from an address of the old list',
        unknown: 'kept out',
      }),
    ).toEqual({})
  })

  it('reads a year typed as digits as the number', () => {
    expect(bookListSearch({ yearFrom: '1999', yearTo: ' ' })).toEqual({ yearFrom: 1999 })
  })
})
