import { listPage, listPageSize, searchParams, wholeNumber } from '#/lib/url-search'

/**
 * Console → System's address: the page of kept emails shown, and the kept email open in the viewer (the server log
 * links to it, so a developer goes from the terminal straight to the email).
 */
export const systemSearch = searchParams({
  email: wholeNumber(1, 2_147_483_647),
  keptPage: listPage,
  keptSize: listPageSize,
})
export type SystemSearch = ReturnType<typeof systemSearch>

/** The kept emails list's input for an address. */
export function keptEmailsInputOf(search: SystemSearch) {
  return { page: search.keptPage ?? 1, limit: search.keptSize ?? 10 }
}
