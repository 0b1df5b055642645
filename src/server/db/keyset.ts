import { asc, desc, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { AppError } from '../trpc/init'

/**
 * Keyset ("cursor") pagination for console lists: a page holds the rows after (or before) a cursor in the chosen
 * order, with the id breaking ties, so rows added or removed meanwhile never shift a page (none shown twice or
 * skipped). A cursor is the sort key of a row, as PostgreSQL prints it (no precision lost), and its id.
 */
export interface SortKey {
  /** The expression rows are ordered by; empty values should sort last in either direction. */
  expression: (direction: 'asc' | 'desc') => SQL
  /** Its SQL type, for reading a cursor's key back. */
  type: 'text' | 'integer' | 'timestamptz'
}

export interface PageRequest {
  direction: 'asc' | 'desc'
  after?: string
  before?: string
  /**
   * A page by its number (from 1), for screens that show page numbers; a cursor, when given, wins. Rows added or
   * removed meanwhile can shift a numbered page by a row, which a person paging by number expects; API clients walking
   * a whole list use the cursors.
   */
  page?: number
  limit: number
}

interface Cursor {
  key: string
  id: string
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id])).toString('base64url')
}

type KeyType = SortKey['type']

const int4 = { min: -2_147_483_648, max: 2_147_483_647 }

/** A timestamp as PostgreSQL prints one (`2026-01-02 03:04:05.678+00`), naming a real instant. */
function isPrintedTimestamp(text: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-]\d{2}(?::\d{2}){0,2}$/.exec(text)
  if (!parts) return false
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number) as number[]
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day ?? 0, hour, minute, second))
  return (
    (year ?? 0) >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === (month ?? 0) - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  )
}

/**
 * Whether a cursor's value can be read back as `type`: a cursor is only ever one this server handed out, so anything
 * else (a date that is no date, a number past the column's range, a NUL PostgreSQL cannot hold) is a bad request,
 * refused before the database would fail on it.
 */
function fitsType(value: string, type: KeyType): boolean {
  switch (type) {
    case 'integer': {
      if (!/^-?(?:0|[1-9][0-9]{0,9})$/.test(value)) return false
      const number = Number(value)
      return number >= int4.min && number <= int4.max
    }
    case 'timestamptz':
      return isPrintedTimestamp(value)
    case 'text':
      return !value.includes('\u0000')
  }
}

const invalidCursor = () =>
  new AppError({ code: 'BAD_REQUEST', appCode: 'INVALID_CURSOR', message: 'This list position is not valid' })

function decodeCursor(text: string, keyType: KeyType, idType: KeyType): Cursor {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw invalidCursor()
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor()
  const [key, id] = parsed as unknown[]
  if (typeof key !== 'string' || typeof id !== 'string') throw invalidCursor()
  if (!fitsType(key, keyType) || !fitsType(id, idType)) throw invalidCursor()
  return { key, id }
}

/**
 * What a page query needs: the condition that starts it at the cursor, its order, and the key to select (as
 * `cursorKey`) so `keysetPage` can hand out the next cursors.
 */
export function keysetQuery(sortKey: SortKey, id: AnyPgColumn, request: PageRequest) {
  const key = sortKey.expression(request.direction)
  const cursorText = request.before ?? request.after
  const idType: KeyType = id.dataType === 'number' ? 'integer' : 'text'
  const cursor = cursorText === undefined ? undefined : decodeCursor(cursorText, sortKey.type, idType)
  const backwards = request.before !== undefined
  const ascending = (request.direction === 'asc') !== backwards
  const castKey = sql`${cursor?.key ?? null}::${sql.raw(sortKey.type)}`
  const position = cursor
    ? ascending
      ? sql`(${key}, ${id}) > (${castKey}, ${cursor.id})`
      : sql`(${key}, ${id}) < (${castKey}, ${cursor.id})`
    : undefined
  return {
    position,
    orderBy: ascending ? [asc(key), asc(id)] : [desc(key), desc(id)],
    cursorKey: sql<string>`(${key})::text`,
    /** One row more than the page, to learn whether another page follows. */
    limit: request.limit + 1,
    offset: cursor === undefined && request.page ? (request.page - 1) * request.limit : 0,
    backwards,
    fromCursor: cursor !== undefined,
  }
}

/** The page's rows in reading order, and the cursors of the pages before and after it. */
export function keysetPage<Row extends { id: string; cursorKey: string }>(
  rows: Row[],
  query: ReturnType<typeof keysetQuery>,
) {
  const hasMore = rows.length >= query.limit
  const page = rows.slice(0, query.limit - 1)
  if (query.backwards) page.reverse()
  const at = (row: Row | undefined) => (row ? encodeCursor({ key: row.cursorKey, id: row.id }) : undefined)
  return {
    items: page.map(({ cursorKey: _, ...item }) => item as Omit<Row, 'cursorKey'>),
    nextCursor: query.backwards ? at(page.at(-1)) : hasMore ? at(page.at(-1)) : undefined,
    previousCursor: query.backwards
      ? hasMore
        ? at(page[0])
        : undefined
      : query.fromCursor || query.offset > 0
        ? at(page[0])
        : undefined,
  }
}
