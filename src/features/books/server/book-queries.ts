import { and, eq, gte, inArray, isNotNull, isNull, like, lte, or, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { isListed, keysWhere, type ListedKeys, searchedTextsOf } from '#/lib/entity'
import type { Database } from '#/server/db/client'
import { keysetPage, keysetQuery, type SortKey } from '#/server/db/keyset'
import { books, users } from '#/server/db/schema'
import { bookEntity } from '../book-entity'
import { compactIsbn, toIsbn13 } from '../isbn'
import { type BookFilters, type BookInput, bookFilters, bookWithTitle } from '../schemas'
import type { BookSortColumn } from '../search'
import { liveBookCount } from './book-limits'
import { newBookId } from './book-rows'

const sortKeys: Partial<Record<BookSortColumn, SortKey>> = {
  // Numbers inside titles sort by their value ("第 88 卷" before "第 988 卷"), in both engines (drizzle/0018).
  title: { expression: () => sql`natural_sort_key(${books.title})`, type: 'text' },
  authors: { expression: () => sql`natural_sort_key(array_to_string(${books.authors}, ', '))`, type: 'text' },
  // ISBNs are digits and X, language codes lower-case letters: a sentinel past them sorts missing values last.
  isbn: {
    expression: (direction) => sql`coalesce(${books.isbn}, ${sql.raw(direction === 'asc' ? "'ZZ'" : "''")})`,
    type: 'text',
  },
  language: {
    expression: (direction) => sql`coalesce(${books.language}, ${sql.raw(direction === 'asc' ? "'zzzz'" : "''")})`,
    type: 'text',
  },
  publishedYear: {
    expression: (direction) =>
      sql`coalesce(${books.publishedYear}, ${sql.raw(direction === 'asc' ? '100000' : '-100000')})`,
    type: 'integer',
  },
  createdAt: { expression: () => sql`${books.createdAt}`, type: 'timestamptz' },
  updatedAt: { expression: () => sql`${books.updatedAt}`, type: 'timestamptz' },
}

/**
 * How the list orders by a sortable field the table above does not name (one added to the definition): numbers by
 * value (a missing one last) and text in natural order (a missing one as empty text).
 */
function sortKeyOf(sort: BookSortColumn): SortKey {
  const known = sortKeys[sort]
  if (known) return known
  const column = books[sort as keyof BookInput] as AnyPgColumn
  const field = bookEntity.fields[sort as keyof BookInput]
  if (field.kind === 'integer')
    return {
      expression: (direction) =>
        sql`coalesce(${column}, ${sql.raw(direction === 'asc' ? '2147483647' : '-2147483648')})`,
      type: 'integer',
    }
  const text = field.kind === 'list' ? sql`array_to_string(${column}, ', ')` : sql`${column}`
  return {
    expression: () => sql`natural_sort_key(coalesce(${text}, ''))`,
    type: 'text',
  }
}

/** `%` and `_` typed into the search box are searched for, not wildcards. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`

/** The books of one organization that the filters select (deleted ones never). */
export function bookConditions(organizationId: string, filters: Partial<BookFilters>): SQL {
  const conditions: (SQL | undefined)[] = [eq(books.organizationId, organizationId), isNull(books.deletedAt)]
  if (filters.q) {
    const text = filters.q.toLowerCase()
    const isbn = compactIsbn(filters.q).toLowerCase()
    conditions.push(
      isbn !== text && isbn
        ? or(like(books.searchText, containing(text)), like(books.searchText, containing(isbn)))
        : like(books.searchText, containing(text)),
    )
  }
  if (filters.tag) conditions.push(sql`${books.tags} @> array[${filters.tag}]::text[]`)
  if (filters.language) conditions.push(eq(books.language, filters.language))
  if (filters.yearFrom !== undefined) conditions.push(gte(books.publishedYear, filters.yearFrom))
  if (filters.yearTo !== undefined) conditions.push(lte(books.publishedYear, filters.yearTo))
  return and(...conditions) as SQL
}

/** What the list reads of each book: the definition's columns, and who added it when. */
export const bookListColumns = {
  id: books.id,
  ...(Object.fromEntries(keysWhere(bookEntity, isListed).map((key) => [key, books[key]])) as Pick<
    typeof books,
    ListedKeys<typeof bookEntity.fields>
  >),
  createdById: books.createdById,
  createdByName: users.name,
  createdAt: books.createdAt,
  updatedAt: books.updatedAt,
}

export interface BookPageRequest extends BookFilters {
  after?: string
  before?: string
  page?: number
  limit: number
}

/** One page of the list, by keyset (src/server/db/keyset.ts): stable while books are added or removed. */
export async function listBooks(db: Database, organizationId: string, request: BookPageRequest) {
  const page = keysetQuery(sortKeyOf(request.sort), books.id, request)
  const [rows, total] = await Promise.all([
    db
      .select({ ...bookListColumns, cursorKey: page.cursorKey })
      .from(books)
      .leftJoin(users, eq(users.id, books.createdById))
      .where(and(bookConditions(organizationId, request), page.position))
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    countBooks(db, organizationId, request),
  ])
  return { ...keysetPage(rows, page), total }
}

/** The filters that narrow the list; the sort and its direction only order it. */
const narrowingFilters = Object.keys(bookFilters.shape).filter(
  (key) => key !== 'sort' && key !== 'direction',
) as (keyof BookFilters)[]

/**
 * How many books the filters select. Without a filter that is every live book, as the plan's limit counts them: summed
 * from book_additions, not counted row by row (the list's first page asks for it on every visit).
 */
export async function countBooks(db: Database, organizationId: string, filters: Partial<BookFilters> = {}) {
  if (narrowingFilters.every((key) => filters[key] === undefined || filters[key] === '')) {
    return liveBookCount(db, organizationId)
  }
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(books)
    .where(bookConditions(organizationId, filters))
  return row?.count ?? 0
}

/** Tags and languages in use, for the list's filter menus. */
export async function bookFacets(db: Database, organizationId: string) {
  const live = and(eq(books.organizationId, organizationId), isNull(books.deletedAt))
  const [tags, languages] = await Promise.all([
    db
      .selectDistinct({ tag: sql<string>`unnest(${books.tags})` })
      .from(books)
      .where(live)
      .orderBy(sql`1`)
      .limit(500),
    db
      .selectDistinct({ language: books.language })
      .from(books)
      .where(and(live, isNotNull(books.language)))
      .orderBy(books.language),
  ])
  return {
    tags: tags.map((row) => row.tag),
    languages: languages.flatMap((row) => (row.language ? [row.language] : [])),
  }
}

/** The stored columns of a valid book (what create, update and import write). */
export function bookColumns(book: BookInput) {
  const isbn13 = book.isbn ? toIsbn13(book.isbn) : null
  const searched = keysWhere(bookEntity, (field) => field.searchable === true).flatMap((key) =>
    searchedTextsOf(book[key]),
  )
  return {
    ...book,
    isbn13,
    searchText: [...searched, isbn13 ?? ''].join('\n').toLowerCase(),
  }
}

/** Live books of the organization holding one of these ISBN-13s (other than `exceptId`). */
export async function booksWithIsbn13(db: Database, organizationId: string, isbn13s: string[], exceptId?: string) {
  if (isbn13s.length === 0) return []
  return db
    .select({ id: books.id, isbn13: books.isbn13, title: books.title })
    .from(books)
    .where(
      and(
        eq(books.organizationId, organizationId),
        isNull(books.deletedAt),
        inArray(books.isbn13, isbn13s),
        exceptId ? sql`${books.id} <> ${exceptId}` : undefined,
      ),
    )
}

/**
 * Adds a book with only its title, made by the organization's `ownerId`, and returns its id: for the apps whose records
 * belong to a book (a file), where they need one made for them.
 */
export async function addBook(
  db: Pick<Database, 'insert'>,
  { id: organizationId, ownerId, title }: { id: string; ownerId: string; title: string },
): Promise<string> {
  const id = newBookId()
  await db.insert(books).values({ id, organizationId, createdById: ownerId, ...bookColumns(bookWithTitle(title)) })
  return id
}
