import { and, asc, eq } from 'drizzle-orm'
import {
  type Action,
  allows,
  grantedPermissions,
  type Permissions,
  parseRoleList,
  type Resource,
  statements,
} from '#/lib/access-control'
import type { Database } from '../db/client'
import { members, organizationRoles, organizations } from '../db/schema'

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
