import { isValidRoleName, organizationLimits } from '#/features/organizations/organization-names'
import { listDirection, listPage, listPageSize, matching, oneOf, searchParams, text } from '#/lib/url-search'

/** The columns the members list can be ordered by (`createdAt`: when they joined). */
export const memberSortColumns = ['name', 'email', 'createdAt'] as const
export type MemberSortColumn = (typeof memberSortColumns)[number]

/** What the activity log can be narrowed to: the part of the organization an entry is about. */
import { type ActivityKind, activityKinds } from '#/lib/activity-actions'

export { type ActivityKind, activityKinds }

// The lists' addresses: a mangled or outdated parameter is dropped rather than refused.

export const memberListSearch = searchParams({
  q: text(200),
  role: matching(organizationLimits.roleNameMax, isValidRoleName),
  sort: oneOf(memberSortColumns),
  direction: listDirection,
  page: listPage,
  size: listPageSize,
})
export type MemberListSearch = ReturnType<typeof memberListSearch>

export const activityListSearch = searchParams({
  kind: oneOf(activityKinds),
  direction: listDirection,
  page: listPage,
  size: listPageSize,
})
export type ActivityListSearch = ReturnType<typeof activityListSearch>

/** An invitation link's id: a malformed one (a mistyped link) is an unknown invitation, not a failed page. */
export const invitationIdMax = 100
