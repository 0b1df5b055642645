import { type ListPageSize, listPageMax, listPageSizes } from './list-paging'

/**
 * Reading a page's URL parameters (a route's `validateSearch`). A parameter that is missing, mangled or outdated is
 * dropped (read as absent) rather than failing the page: addresses are typed, shared and kept in bookmarks long after
 * the app changed. The list procedures check what they are given again, with zod.
 *
 * Plain functions rather than zod because every route's definition is in the first download of every page, and zod's
 * core (even zod/mini) is ~14 KB gzip of it (docs/decisions/018-first-load-javascript.md).
 */
type Field<T> = (value: unknown) => T

type OptionalFields<Shape> = {
  [K in keyof Shape as Shape[K] extends Field<infer T>
    ? undefined extends T
      ? K
      : never
    : never]?: Shape[K] extends Field<infer T> ? Exclude<T, undefined> : never
}
type RequiredFields<Shape> = {
  [K in keyof Shape as Shape[K] extends Field<infer T>
    ? undefined extends T
      ? never
      : K
    : never]: Shape[K] extends Field<infer T> ? T : never
}
export type SearchOf<Shape> = OptionalFields<Shape> & RequiredFields<Shape>

/** A `validateSearch` reading each named parameter with its field; unknown parameters are dropped. */
export function searchParams<Shape extends Record<string, Field<unknown>>>(shape: Shape) {
  return (search: Record<string, unknown>): SearchOf<Shape> => {
    const read: Record<string, unknown> = {}
    for (const [name, field] of Object.entries(shape)) {
      const value = field(search[name])
      if (value !== undefined) read[name] = value
    }
    return read as SearchOf<Shape>
  }
}

/** Text of at most `max` characters; trimmed unless `trim` is false. */
export const text =
  (max: number, { trim = true } = {}): Field<string | undefined> =>
  (value) => {
    if (typeof value !== 'string') return undefined
    const read = trim ? value.trim() : value
    return read.length <= max ? read : undefined
  }

/** One of a fixed set of values. */
export const oneOf =
  <const Values extends readonly string[]>(values: Values): Field<Values[number] | undefined> =>
  (value) =>
    values.includes(value as string) ? (value as Values[number]) : undefined

/** A whole number from `min` to `max`, given as a number or as digits. */
export const wholeNumber =
  (min: number, max: number): Field<number | undefined> =>
  (value) => {
    const read =
      typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : Number.NaN
    return Number.isInteger(read) && read >= min && read <= max ? read : undefined
  }

/** A real calendar day, YYYY-MM-DD (as a date input gives it). */
export const day: Field<string | undefined> = (value) => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : undefined
}

/** A text that passes `check`, trimmed. */
export const matching =
  (max: number, check: (value: string) => boolean): Field<string | undefined> =>
  (value) => {
    const read = text(max)(value)
    return read !== undefined && check(read) ? read : undefined
  }

/** The field's value, or `fallback` when it has none. */
export const withFallback =
  <T>(field: Field<T | undefined>, fallback: T): Field<T> =>
  (value) =>
    field(value) ?? fallback

/** An opaque list position (a cursor); the list procedure checks it. */
export const listCursor = text(1000, { trim: false })

/** The order of a list. */
export const listDirection = oneOf(['asc', 'desc'])

/** A list's page number (from 1). */
export const listPage = wholeNumber(1, listPageMax)

/** A list's page size: one of the sizes offered. */
export const listPageSize: Field<ListPageSize | undefined> = (value) => {
  const read = wholeNumber(1, 100)(value)
  return listPageSizes.find((size) => size === read)
}
