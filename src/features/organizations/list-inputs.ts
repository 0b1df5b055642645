// The list procedures' inputs from the pages' URL state: imported by route definitions, which are in every page's
// first load, so this module must stay free of the auth client and other heavy modules.
import { pageOf } from '#/lib/list-paging'
import type { ActivityListSearch, MemberListSearch } from './search'

/** The members procedure's input for the page's URL state (the route prefetches it, the screen reads it). */
export function memberListInputOf(search: MemberListSearch) {
  return {
    q: search.q,
    role: search.role,
    sort: search.sort ?? 'createdAt',
    direction: search.direction ?? 'asc',
    ...pageOf(search, 25),
  } as const
}

/** The activity procedure's input for the page's URL state. */
export function activityListInputOf(search: ActivityListSearch) {
  return {
    kind: search.kind,
    direction: search.direction ?? 'desc',
    ...pageOf(search, 25),
  } as const
}
