import { and, asc, desc, eq, isNotNull } from 'drizzle-orm'
import {
  type Action,
  allows,
  grantedPermissions,
  type Permissions,
  parseRoleList,
  type Resource,
  statements,
} from '#/lib/access-control'
import { serverApps } from '../apps.gen'
import type { Database } from '../db/client'
import { members, organizationRoles, organizations, sessions } from '../db/schema'

export interface OrganizationAccess {
  organization: { id: string; name: string; slug: string; logo: string | null; createdAt: Date }
  member: { id: string; role: string; roles: string[]; createdAt: Date }
  /** Everything the member's roles grant here (built-in and custom roles together), for the console to show. */
  permissions: Record<Resource, Action[]>
  /** What each of the member's roles grants on its own: a check passes when one role grants all it asks. */
  rolePermissions: Record<Resource, Action[]>[]
}

/** A custom role's stored permissions, keeping only resources and actions the definition knows. */
export function parseStoredPermission(json: string): Permissions {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null) return {}
  const result: Record<string, string[]> = {}
  for (const [resource, actions] of Object.entries(parsed)) {
    if (!Object.hasOwn(statements, resource) || !Array.isArray(actions)) continue
    const known: readonly string[] = statements[resource as Resource]
    result[resource] = actions.filter(
      (action): action is string => typeof action === 'string' && known.includes(action),
    )
  }
  return result as Permissions
}

/** The organization's custom roles by name. */
export async function loadCustomRoles(db: Database, organizationId: string): Promise<Record<string, Permissions>> {
  const rows = await db
    .select({ role: organizationRoles.role, permission: organizationRoles.permission })
    .from(organizationRoles)
    .where(eq(organizationRoles.organizationId, organizationId))
  return Object.fromEntries(rows.map((row) => [row.role, parseStoredPermission(row.permission)]))
}

/** What `userId` may do in `organizationId`, or null when they are not a member of it. */
export async function loadOrganizationAccess(
  db: Database,
  userId: string,
  organizationId: string,
): Promise<OrganizationAccess | null> {
  const [row] = await db
    .select({ organization: organizations, member: members })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(and(eq(members.userId, userId), eq(members.organizationId, organizationId)))
  if (!row) return null
  const roles = parseRoleList(row.member.role)
  const builtInOnly = roles.every((role) => role === 'owner' || role === 'admin' || role === 'member')
  const customRoles = builtInOnly ? {} : await loadCustomRoles(db, organizationId)
  return {
    organization: {
      id: row.organization.id,
      name: row.organization.name,
      slug: row.organization.slug,
      logo: row.organization.logo,
      createdAt: row.organization.createdAt,
    },
    member: { id: row.member.id, role: row.member.role, roles, createdAt: row.member.createdAt },
    permissions: grantedPermissions(roles, customRoles),
    rolePermissions: roles.map((role) => grantedPermissions([role], customRoles)),
  }
}

/**
 * Access reads remembered for a short while, so the console's pages and organization-scoped queries do not re-read
 * the same membership on every request (docs: Authentication, "Session checks and revocation").
 *
 * - Only reads use it: every change (tRPC mutation, Better Auth endpoint) loads access from the database.
 * - Anything that may change access on this server (any request that is not a read) forgets everything at once,
 *   before it runs and after it answered; a read that began before such a request ends is not kept.
 * - On other servers of the same deployment a change reaches reads within `lifetimeMs` (SESSION_CACHE_SECONDS, the
 *   same delay a revoked session already has there). A lifetime of 0 turns remembering off.
 * - "Not a member" is never remembered: someone just added sees the organization at once everywhere.
 */
interface RememberedRead {
  value: unknown
  validUntil: number
  generation: number
}
const maxRememberedReads = 10_000
const rememberedReads = new WeakMap<Database, Map<string, RememberedRead>>()
let accessGeneration = 0

/** Everything remembered is forgotten: something that may change who can do what is about to run, or just ran. */
export function forgetRememberedAccess(): void {
  accessGeneration++
}

/** POST routes the installed apps say change no one's access (an analytics beacon). */
const accessNeutralPosts = new Set(serverApps.flatMap((app) => app.accessNeutralPosts ?? []))

/** Reads (GET, HEAD) and the apps' access-neutral posts change no one's access; anything else may (tRPC, auth). */
function mayChangeAccess(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return false
  return accessNeutralPosts.size === 0 || !accessNeutralPosts.has(new URL(request.url).pathname)
}

/** Answers a request; one that may change access forgets everything remembered before it runs and after it answered. */
export async function forgettingAccessOnChange<T>(request: Request, answer: () => Promise<T>): Promise<T> {
  if (!mayChangeAccess(request)) return answer()
  forgetRememberedAccess()
  try {
    return await answer()
  } finally {
    forgetRememberedAccess()
  }
}

async function rememberedRead<T>(db: Database, key: string, lifetimeMs: number, load: () => Promise<T>): Promise<T> {
  if (lifetimeMs <= 0) return load()
  let memory = rememberedReads.get(db)
  if (!memory) {
    memory = new Map()
    rememberedReads.set(db, memory)
  }
  const hit = memory.get(key)
  if (hit && hit.generation === accessGeneration && hit.validUntil > Date.now()) return hit.value as T
  const generation = accessGeneration
  const value = await load()
  if (value === null || generation !== accessGeneration) return value
  memory.delete(key) // re-inserted last: the least recently stored go first
  memory.set(key, { value, validUntil: Date.now() + lifetimeMs, generation })
  for (const oldest of memory.keys()) {
    if (memory.size <= maxRememberedReads) break
    memory.delete(oldest)
  }
  return value
}

/** loadOrganizationAccess for a read (page or query), remembered for up to `lifetimeMs`. Do not modify the result. */
export function readOrganizationAccess(
  db: Database,
  userId: string,
  organizationId: string,
  lifetimeMs: number,
): Promise<OrganizationAccess | null> {
  return rememberedRead(db, `access\n${userId}\n${organizationId}`, lifetimeMs, () =>
    loadOrganizationAccess(db, userId, organizationId),
  )
}

/** listMemberships for a read, remembered for up to `lifetimeMs`. Do not modify the result. */
export function readMemberships(db: Database, userId: string, lifetimeMs: number): ReturnType<typeof listMemberships> {
  return rememberedRead(db, `memberships\n${userId}`, lifetimeMs, () => listMemberships(db, userId))
}

/**
 * The organization an API key works in (a key's session has none of its own): the one its owner last had active in
 * a session, while they are still a member there; else their first (the personal workspace). Null with none.
 */
export async function keyOwnerOrganizationId(db: Database, userId: string): Promise<string | null> {
  const [lastActive] = await db
    .select({ id: members.organizationId })
    .from(sessions)
    .innerJoin(
      members,
      and(eq(members.organizationId, sessions.activeOrganizationId), eq(members.userId, sessions.userId)),
    )
    .where(and(eq(sessions.userId, userId), isNotNull(sessions.activeOrganizationId)))
    .orderBy(desc(sessions.updatedAt))
    .limit(1)
  if (lastActive) return lastActive.id
  const [first] = await listMemberships(db, userId)
  return first?.id ?? null
}

/** The organizations a user belongs to, oldest membership first (the personal workspace comes first). */
export async function listMemberships(db: Database, userId: string) {
  return db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug, logo: organizations.logo })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt), asc(organizations.name))
}

/** SPEC section 6 (and Better Auth's has-permission): a check passes if any ONE of the member's roles grants it. */
export function accessAllows(access: OrganizationAccess, requested: Permissions): boolean {
  return access.rolePermissions.some((granted) => allows(granted, requested))
}
