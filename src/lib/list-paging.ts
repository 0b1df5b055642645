// How console lists are paged: by page number and a page size the reader chooses (kept in the address), with the
// total beside them. Plain values, no zod: route definitions read these in every page's first download.

/** The page sizes a reader can choose from. */
export const listPageSizes = [10, 25, 50, 100] as const
export type ListPageSize = (typeof listPageSizes)[number]

/** The highest page number a list accepts (100 rows a page: a million rows). */
export const listPageMax = 10_000

/** The `page` and `limit` a list procedure takes for an address's `page` and `size`. */
export function pageOf(search: { page?: number; size?: number }, defaultSize: ListPageSize) {
  const size = listPageSizes.find((allowed) => allowed === search.size) ?? defaultSize
  return { page: search.page ?? 1, limit: size }
}

/** The page count for a total (at least one page, so "page 1 of 1" reads right on an empty list). */
export function pageCountOf(total: number, size: number) {
  return Math.max(1, Math.ceil(total / size))
}
