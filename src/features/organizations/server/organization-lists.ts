import { and, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm'
import { appActivityActions } from '#/activity-actions.gen'
import type { AppActivityAction } from '#/lib/activity-actions'
import type { Database } from '#/server/db/client'
import { keysetPage, keysetQuery, type SortKey } from '#/server/db/keyset'
import { members, organizationActivity, users } from '#/server/db/schema'
import type { ActivityListInput, MemberFilters } from '../schemas'
import type { ActivityKind, MemberSortColumn } from '../search'
import type { ActivityAction } from './organization-activity'

const memberSortKeys: Record<MemberSortColumn, SortKey> = {
  name: { expression: () => sql`lower(${users.name})`, type: 'text' },
  email: { expression: () => sql`lower(${users.email})`, type: 'text' },
  createdAt: { expression: () => sql`${members.createdAt}`, type: 'timestamptz' },
}

/** `%` and `_` typed into the search box are searched for, not wildcards. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`

function memberConditions(organizationId: string, filters: MemberFilters): SQL | undefined {
  return and(
    eq(members.organizationId, organizationId),
    filters.q ? or(ilike(users.name, containing(filters.q)), ilike(users.email, containing(filters.q))) : undefined,
    // A member's roles are stored comma-separated ("admin,editor"); Better Auth trims each when it reads them.
    filters.role ? sql`${filters.role} = any(regexp_split_to_array(${members.role}, '\\s*,\\s*'))` : undefined,
  )
}

/** One page of the organization's members, with the name and email of each. */
export async function listMembers(
  db: Database,
  organizationId: string,
  request: MemberFilters & { after?: string; before?: string; page?: number; limit: number },
) {
  const page = keysetQuery(memberSortKeys[request.sort], members.id, request)
  const conditions = memberConditions(organizationId, request)
  const rowsQuery = db
    .select({
      id: members.id,
      userId: members.userId,
      role: members.role,
      createdAt: members.createdAt,
      name: users.name,
      email: users.email,
      image: users.image,
      cursorKey: page.cursorKey,
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(conditions, page.position))
    .orderBy(...page.orderBy)
    .limit(page.limit)
    .offset(page.offset)
  const [rows, [counted]] = await Promise.all([
    rowsQuery,
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(conditions),
  ])
  return { ...keysetPage(rows, page), total: counted?.total ?? 0 }
}

/** The kind each recorded action is filed under: a new action fails the type check until it has one. */
const activityKindOf: Record<ActivityAction, ActivityKind> = {
  ...(Object.fromEntries(
    Object.entries(appActivityActions as Readonly<Record<string, AppActivityAction>>).map(([action, { kind }]) => [
      action,
      kind,
    ]),
  ) as Record<keyof typeof appActivityActions, ActivityKind>),
  organization_created: 'organization',
  organization_updated: 'organization',
  member_invited: 'invitations',
  invitation_canceled: 'invitations',
  invitation_rejected: 'invitations',
  member_joined: 'members',
  member_added: 'members',
  member_removed: 'members',
  member_left: 'members',
  member_role_changed: 'members',
  ownership_transferred: 'members',
  team_created: 'teams',
  team_renamed: 'teams',
  team_deleted: 'teams',
  team_member_added: 'teams',
  team_member_removed: 'teams',
  role_created: 'roles',
  role_updated: 'roles',
  role_deleted: 'roles',
}

const actionsOfKind = (kind: ActivityKind) =>
  Object.entries(activityKindOf)
    .filter(([, of]) => of === kind)
    .map(([action]) => action)

/** The log is numbered as it is written (a serial id, indexed with the organization), so the id is its order too. */
const activityOrder: SortKey = { expression: () => sql`${organizationActivity.id}`, type: 'integer' }

/** One page of the organization's activity log. */
export async function listActivity(db: Database, organizationId: string, request: ActivityListInput) {
  const page = keysetQuery(activityOrder, organizationActivity.id, request)
  const conditions = and(
    eq(organizationActivity.organizationId, organizationId),
    request.kind ? inArray(organizationActivity.action, actionsOfKind(request.kind)) : undefined,
  )
  const rowsQuery = db
    .select({
      // Cursors name rows by a text id; the entry keeps its numeric one.
      id: sql<string>`${organizationActivity.id}::text`,
      entryId: organizationActivity.id,
      actorName: organizationActivity.actorName,
      // The actor's picture today (null once the account is gone: the name stays as it was written).
      actorImage: users.image,
      action: organizationActivity.action,
      details: organizationActivity.details,
      createdAt: organizationActivity.createdAt,
      cursorKey: page.cursorKey,
    })
    .from(organizationActivity)
    .leftJoin(users, eq(users.id, organizationActivity.actorId))
    .where(and(conditions, page.position))
    .orderBy(...page.orderBy)
    .limit(page.limit)
    .offset(page.offset)
  const [rows, [counted]] = await Promise.all([
    rowsQuery,
    db.select({ total: sql<number>`count(*)::int` }).from(organizationActivity).where(conditions),
  ])
  const { items, ...cursors } = keysetPage(rows, page)
  return {
    items: items.map(({ id: _, entryId, ...entry }) => ({ id: entryId, ...entry })),
    ...cursors,
    total: counted?.total ?? 0,
  }
}
