import { sortableKeysOf } from '#/lib/entity'
import { listDirection, listPage, listPageSize, oneOf, searchParams, text, wholeNumber } from '#/lib/url-search'
import { bookEntity } from './book-entity'
import { bookLanguages } from './book-languages'
import { bookLimits } from './book-rules'

/** The list's orders: the definition's sortable fields, then when a book was added or changed. */
export const bookSortColumns = [...sortableKeysOf(bookEntity), 'createdAt', 'updatedAt'] as const
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
