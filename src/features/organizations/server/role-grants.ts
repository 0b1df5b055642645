import { APIError, getSessionFromCtx } from 'better-auth/api'
import { and, eq } from 'drizzle-orm'
import { grantedPermissions, mayGrant, type Permissions, parseRoleList } from '#/lib/access-control'
import { loadCustomRoles, loadOrganizationAccess, parseStoredPermission } from '#/server/auth/organization-access'
import type { Database } from '#/server/db/client'
import { members, organizationRoles, users } from '#/server/db/schema'

type Body = Record<string, unknown>
type Context = Parameters<typeof getSessionFromCtx>[0]

const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The requests that hand out roles, shape custom roles, or act on a member (Better Auth checks only the action). */
const roleGrantPaths = new Set([
  '/organization/update-member-role',
  '/organization/invite-member',
  '/organization/remove-member',
  '/organization/create-role',
  '/organization/update-role',
  '/organization/delete-role',
])

const grantsTooMuch = () =>
  new APIError('FORBIDDEN', {
    code: 'CANNOT_GRANT_PERMISSIONS_YOU_LACK',
    message: 'You cannot give permissions that you do not have yourself',
  })

const outranksCaller = () =>
  new APIError('FORBIDDEN', {
    code: 'MEMBER_HAS_PERMISSIONS_YOU_LACK',
    message: 'This member has permissions that you do not have; only someone who has them can change this member',
  })

/** A role list as Better Auth reads it from a body (`"a,b"` or `["a", "b"]`); undefined when it is neither. */
function roleListOf(value: unknown): string[] | undefined {
  if (typeof value === 'string') return parseRoleList(value)
  if (Array.isArray(value) && value.every((role) => typeof role === 'string')) return parseRoleList(value)
  return undefined
}

/**
 * Refuses, before Better Auth acts, any request through which a member would hand out (to anyone, themselves
 * included) a role carrying a permission they do not hold, shape a custom role to carry one, or change or remove a
 * member who holds permissions they lack. Better Auth checks only that the caller may act at all (`member: update`,
 * `ac: create`), which let an admin give themselves an owner's custom role and then delete the organization.
 */
export async function refuseGrantsBeyondCaller(db: Database, ctx: Context & { path: string }): Promise<void> {
  if (!roleGrantPaths.has(ctx.path)) return
  const body = (isObject(ctx.body) ? ctx.body : {}) as Body
  const session = await getSessionFromCtx(ctx)
  if (!session) return // Better Auth answers 401
  const organizationId =
    typeof body.organizationId === 'string' && body.organizationId !== ''
      ? body.organizationId
      : (session.session as { activeOrganizationId?: string | null }).activeOrganizationId
  if (!organizationId) return // Better Auth answers NO_ACTIVE_ORGANIZATION
  const caller = await loadOrganizationAccess(db, session.user.id, organizationId)
  if (!caller) return // Better Auth answers that the caller is not a member
  const customRoles = await loadCustomRoles(db, organizationId)
  const held = caller.rolePermissions
  const coversRoles = (roles: string[]) =>
    roles.every((role) => mayGrant(held, grantedPermissions([role], customRoles)))
  const coversMember = (member: { role: string } | undefined) => !member || coversRoles(parseRoleList(member.role))

  switch (ctx.path) {
    case '/organization/update-member-role': {
      const roles = roleListOf(body.role)
      if (roles && !coversRoles(roles)) throw grantsTooMuch()
      if (typeof body.memberId === 'string' && !coversMember(await memberById(db, organizationId, body.memberId))) {
        throw outranksCaller()
      }
      return
    }
    case '/organization/invite-member': {
      const roles = roleListOf(body.role ?? 'member')
      if (roles && !coversRoles(roles)) throw grantsTooMuch()
      return
    }
    case '/organization/remove-member': {
      const target = typeof body.memberIdOrEmail === 'string' ? body.memberIdOrEmail : undefined
      if (target && !coversMember(await memberByIdOrEmail(db, organizationId, target))) throw outranksCaller()
      return
    }
    case '/organization/create-role': {
      if (isObject(body.permission) && !mayGrant(held, body.permission as Permissions)) throw grantsTooMuch()
      return
    }
    case '/organization/update-role':
    case '/organization/delete-role': {
      const existing = await customRoleOf(db, organizationId, body)
      if (existing && !mayGrant(held, existing)) throw grantsTooMuch()
      const data = isObject(body.data) ? body.data : {}
      if (isObject(data.permission) && !mayGrant(held, data.permission as Permissions)) throw grantsTooMuch()
      return
    }
  }
}

async function memberById(db: Database, organizationId: string, memberId: string) {
  const [member] = await db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.organizationId, organizationId)))
  return member
}

async function memberByIdOrEmail(db: Database, organizationId: string, idOrEmail: string) {
  if (!idOrEmail.includes('@')) return memberById(db, organizationId, idOrEmail)
  const [member] = await db
    .select({ role: members.role })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, organizationId), eq(users.email, idOrEmail.toLowerCase())))
  return member
}

/**
 * The custom role a role request acts on, chosen as Better Auth chooses it: by `roleName` when one is given, else by
 * `roleId`. A body naming both (one role's name, another's id) must be checked against the role that will change, not
 * against whichever row the database happens to return first.
 */
export async function customRoleNamedBy(db: Database, organizationId: string, body: Body) {
  const byName = typeof body.roleName === 'string' && body.roleName !== ''
  const byId = typeof body.roleId === 'string' && body.roleId !== ''
  if (!byName && !byId) return undefined
  const [role] = await db
    .select({ role: organizationRoles.role, permission: organizationRoles.permission })
    .from(organizationRoles)
    .where(
      and(
        eq(organizationRoles.organizationId, organizationId),
        byName ? eq(organizationRoles.role, body.roleName as string) : eq(organizationRoles.id, body.roleId as string),
      ),
    )
  return role
}

/** The stored permissions of the custom role a body names, if it exists. */
async function customRoleOf(db: Database, organizationId: string, body: Body): Promise<Permissions | undefined> {
  const role = await customRoleNamedBy(db, organizationId, body)
  return role ? parseStoredPermission(role.permission) : undefined
}
