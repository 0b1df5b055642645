import { and, desc, eq, gt, gte, isNull, like, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { keysetPage, keysetQuery, type SortKey } from '#/server/db/keyset'
import { accounts, auditLog, members, organizations, sessions, users } from '#/server/db/schema'
import type { UserFilters } from '../schemas'
import type { UserSortColumn } from '../search'

const sortKeys: Record<UserSortColumn, SortKey> = {
  name: { expression: () => sql`lower(${users.name})`, type: 'text' },
  email: { expression: () => sql`lower(${users.email})`, type: 'text' },
  createdAt: { expression: () => sql`${users.createdAt}`, type: 'timestamptz' },
}

/** `%` and `_` typed into the search box are searched for, not wildcards. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`

/** A ban that has not run out yet (Better Auth lifts an expired one at the next sign-in). */
const bannedNow = () =>
  and(eq(users.banned, true), or(isNull(users.banExpires), gt(users.banExpires, sql`now()`))) as SQL

function userConditions(filters: Partial<UserFilters>): SQL | undefined {
  const conditions: (SQL | undefined)[] = []
  const kind = filters.kind ?? 'accounts'
  if (kind === 'accounts') conditions.push(eq(users.isAnonymous, false))
  if (kind === 'guests') conditions.push(eq(users.isAnonymous, true))
  if (filters.q) {
    const pattern = containing(filters.q)
    conditions.push(
      or(
        like(sql`lower(${users.name})`, pattern),
        like(sql`lower(${users.email})`, pattern),
        like(sql`lower(coalesce(${users.username}, ''))`, pattern),
      ),
    )
  }
  if (filters.role === 'admin') conditions.push(sql`'admin' = any(string_to_array(${users.role}, ','))`)
  if (filters.role === 'user') conditions.push(sql`not ('admin' = any(string_to_array(${users.role}, ',')))`)
  if (filters.status === 'banned') conditions.push(bannedNow())
  if (filters.status === 'active') conditions.push(sql`not (${bannedNow()})`)
  if (filters.verified) conditions.push(eq(users.emailVerified, filters.verified === 'yes'))
  // Whole days in UTC: "to" includes the day it names.
  if (filters.joinedFrom) conditions.push(gte(users.createdAt, new Date(`${filters.joinedFrom}T00:00:00Z`)))
  if (filters.joinedTo) {
    const end = new Date(`${filters.joinedTo}T00:00:00Z`)
    end.setUTCDate(end.getUTCDate() + 1)
    conditions.push(lt(users.createdAt, end))
  }
  return and(...conditions)
}

export const userListColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  username: users.displayUsername,
  image: users.image,
  role: users.role,
  emailVerified: users.emailVerified,
  banned: sql<boolean>`coalesce(${bannedNow()}, false)`,
  banReason: users.banReason,
  banExpires: users.banExpires,
  isAnonymous: users.isAnonymous,
  twoFactorEnabled: users.twoFactorEnabled,
  createdAt: users.createdAt,
}

export async function listUsers(
  db: Database,
  request: UserFilters & { after?: string; before?: string; page?: number; limit: number },
) {
  const page = keysetQuery(sortKeys[request.sort], users.id, request)
  const [rows, total] = await Promise.all([
    db
      .select({ ...userListColumns, cursorKey: page.cursorKey })
      .from(users)
      .where(and(userConditions(request), page.position))
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    countUsers(db, request),
  ])
  return { ...keysetPage(rows, page), total }
}

export async function countUsers(db: Database, filters: Partial<UserFilters>) {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users).where(userConditions(filters))
  return row?.count ?? 0
}

export async function findUser(db: Database, userId: string) {
  const [user] = await db.select(userListColumns).from(users).where(eq(users.id, userId))
  return user
}

/** Everything the user's page shows besides the user: organizations, live sessions, sign-in methods, history. */
export async function userDetails(db: Database, userId: string) {
  const [memberships, liveSessions, linked, history] = await Promise.all([
    db
      .select({
        id: organizations.id,
        name: organizations.name,
        slug: organizations.slug,
        logo: organizations.logo,
        role: members.role,
        joinedAt: members.createdAt,
      })
      .from(members)
      .innerJoin(organizations, eq(organizations.id, members.organizationId))
      .where(eq(members.userId, userId))
      .orderBy(members.createdAt),
    db
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        updatedAt: sessions.updatedAt,
        expiresAt: sessions.expiresAt,
        ipAddress: sessions.ipAddress,
        userAgent: sessions.userAgent,
        signInMethod: sessions.signInMethod,
        impersonatedBy: sessions.impersonatedBy,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(desc(sessions.updatedAt)),
    db.select({ providerId: accounts.providerId }).from(accounts).where(eq(accounts.userId, userId)),
    db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        actorName: auditLog.actorName,
        // The actor's picture today; null once their account is gone (the name stays as it was written).
        actorImage: users.image,
        details: auditLog.details,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(eq(auditLog.targetUserId, userId))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(50),
  ])
  return {
    organizations: memberships,
    sessions: liveSessions,
    signInMethods: [...new Set(linked.map((account) => account.providerId))],
    history,
  }
}

export async function sessionTokenOf(db: Database, userId: string, sessionId: string) {
  const [row] = await db
    .select({ token: sessions.token })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
  return row?.token
}

/** App admins who can still sign in (guests never count): the last one may not be demoted. */
export async function countAppAdmins(db: Database) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(and(sql`'admin' = any(string_to_array(${users.role}, ','))`, eq(users.isAnonymous, false)))
  return row?.count ?? 0
}
