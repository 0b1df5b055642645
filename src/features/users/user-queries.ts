import type { inferRouterOutputs } from '@trpc/server'
import { pageOf } from '#/lib/list-paging'
import type { AppRouter } from '#/server/trpc/root'
import type { UserListSearch } from './search'

type UsersOutputs = inferRouterOutputs<AppRouter>['users']
export type UserRow = UsersOutputs['list']['items'][number]
export type UserDetails = UsersOutputs['get']

/** The list procedure's input for the page's URL state (the route prefetches it, the screen reads it). */
export function userListInputOf(search: UserListSearch) {
  return {
    q: search.q,
    role: search.role,
    status: search.status,
    verified: search.verified,
    kind: search.kind,
    joinedFrom: search.joinedFrom,
    joinedTo: search.joinedTo,
    sort: search.sort ?? 'createdAt',
    direction: search.direction ?? 'desc',
    ...pageOf(search, 25),
  } as const
}

export function userFiltersOf(search: UserListSearch) {
  const { page: _page, limit: _limit, ...filters } = userListInputOf(search)
  return filters
}
