import { day, listDirection, listPage, listPageSize, oneOf, searchParams, text } from '#/lib/url-search'

export const appRoles = ['user', 'admin'] as const
export type AppRole = (typeof appRoles)[number]

export const userSortColumns = ['name', 'email', 'createdAt'] as const
export type UserSortColumn = (typeof userSortColumns)[number]

/** The users list's address: a mangled or outdated parameter is dropped rather than refused. */
export const userListSearch = searchParams({
  q: text(200),
  role: oneOf(appRoles),
  status: oneOf(['active', 'banned']),
  verified: oneOf(['yes', 'no']),
  kind: oneOf(['accounts', 'guests', 'all']),
  joinedFrom: day,
  joinedTo: day,
  sort: oneOf(userSortColumns),
  direction: listDirection,
  page: listPage,
  size: listPageSize,
})
export type UserListSearch = ReturnType<typeof userListSearch>
