import { listDirection, listPage, listPageSize, oneOf, searchParams, text, wholeNumber } from '#/lib/url-search'
import { bookLanguages } from './book-languages'
import { bookLimits } from './book-rules'

/**
 * The list's orders: the definition's sortable fields (book-entity.ts), then when a book was added or changed. Written
 * out rather than read from the definition: every page reads the list's address, and the definition brings zod and
 * the books' words with it. book-entity-surfaces.test.ts fails when the two disagree.
 */
export const bookSortColumns = [
  'title',
  'authors',
  'isbn',
  'publishedYear',
  'language',
  'createdAt',
  'updatedAt',
] as const
export type BookSortColumn = (typeof bookSortColumns)[number]

const year = wholeNumber(0, 9999)

/** The books list's address: a mangled or outdated parameter is dropped rather than refused. */
export const bookListSearch = searchParams({
  q: text(200),
  tag: text(bookLimits.tagMax),
  language: oneOf(bookLanguages),
  yearFrom: year,
  yearTo: year,
  sort: oneOf(bookSortColumns),
  direction: listDirection,
  page: listPage,
  size: listPageSize,
})
export type BookListSearch = ReturnType<typeof bookListSearch>
