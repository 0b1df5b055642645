import { useQueryClient } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { pageOf } from '#/lib/list-paging'
import { useTRPC } from '#/lib/trpc'
import type { AppRouter } from '#/server/trpc/root'
import type { BookFilters } from './schemas'
import type { BookListSearch } from './search'

type BooksOutputs = inferRouterOutputs<AppRouter>['books']
export type BookPage = BooksOutputs['list']
export type BookRow = BookPage['items'][number]
export type BookDetails = BooksOutputs['get']

/**
 * Optimistic changes to every cached page of the list: `apply` changes them at once, and the returned function
 * puts them back as they were (when the server refuses).
 */
export function useBookListCache() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const listKey = trpc.books.list.pathKey()
  return {
    apply(change: (items: BookRow[], page: BookPage) => BookRow[]): () => void {
      const before = queryClient.getQueriesData<BookPage>({ queryKey: listKey })
      void queryClient.cancelQueries({ queryKey: listKey })
      queryClient.setQueriesData<BookPage>({ queryKey: listKey }, (page) =>
        page ? { ...page, items: change(page.items, page) } : page,
      )
      return () => {
        for (const [key, data] of before) queryClient.setQueryData(key, data)
      }
    },
    /**
     * Drops what is cached of deleted books' own pages, so that refreshing does not ask the server for books it just
     * deleted (a 404 in the console of the page that deleted them).
     */
    forget(ids: string[]) {
      for (const id of ids) queryClient.removeQueries({ queryKey: trpc.books.get.queryKey({ id }) })
    },
    /** The CSV of the books the filters select, always fresh from the server. */
    fetchExport: (filters: BookFilters) =>
      queryClient.fetchQuery({ ...trpc.books.exportCsv.queryOptions(filters), staleTime: 0, gcTime: 0 }),
    /**
     * Refetches everything about books (lists, counts, facets, details) from the server, and the plan's usage, which
     * counts them (what the New book and Import buttons show as limited).
     */
    refresh: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.books.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.organizations.planLimits.queryKey() }),
      ]),
  }
}

/** The list procedure's input for the page's URL state (the route prefetches it, the screen reads it). */
export function listInputOf(search: BookListSearch) {
  return {
    q: search.q,
    tag: search.tag,
    language: search.language,
    yearFrom: search.yearFrom,
    yearTo: search.yearTo,
    sort: search.sort ?? 'createdAt',
    direction: search.direction ?? 'desc',
    ...pageOf(search, 25),
  } as const
}

/** The filters alone (what the count and the export take). */
export function filtersOf(search: BookListSearch) {
  const { page: _page, limit: _limit, ...filters } = listInputOf(search)
  return filters
}
