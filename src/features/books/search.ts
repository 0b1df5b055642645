import { listDirection, listPage, listPageSize, oneOf, searchParams, text, wholeNumber } from '#/lib/url-search'
import { bookLimits } from './book-rules'

/** ISO 639-1 codes offered for a book's language; names come from Intl.DisplayNames in the reader's language. */
export const bookLanguages = [
  'ar',
  'bn',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'fa',
  'fi',
  'fr',
  'he',
  'hi',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'la',
  'ms',
  'nl',
  'no',
  'pl',
  'pt',
  'ro',
  'ru',
  'sv',
  'sw',
  'th',
  'tr',
  'uk',
  'ur',
  'vi',
  'zh',
] as const
export type BookLanguage = (typeof bookLanguages)[number]

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
