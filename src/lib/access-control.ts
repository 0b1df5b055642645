import { createAccessControl } from 'better-auth/plugins/access'
import { defaultStatements } from 'better-auth/plugins/organization/access'
import { appRoleStatements, appStatements } from './app-permissions.gen'

/**
 * The one definition of organization permissions (SPEC section 6, plus the product's own resources). The server checks
 * every request against it (Better Auth's organization plugin and `orgProcedure`); the console only uses it to hide
 * what the server would refuse. Custom roles (dynamic access control) pick from the same statements.
 */
export const statements = {
  ...defaultStatements,
  /** The organization's activity log. */
  activity: ['read'],
  /** The installed apps' resources (their src/features/<app>/permissions.ts). */
  ...appStatements,
} as const

export type Resource = keyof typeof statements
export type Action<R extends Resource = Resource> = (typeof statements)[R][number]
/** A permission request: every listed action of every listed resource. */
export type Permissions = { [R in Resource]?: Action<R>[] }

export const ac = createAccessControl(statements)

const ownerStatements = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  activity: ['read'],
  ...appRoleStatements.owner,
} satisfies Permissions

export const builtInRoleStatements = {
  owner: ownerStatements,
  /** Everything but deleting the organization (and what the apps keep for owners, such as managing billing). */
  admin: { ...ownerStatements, organization: ['update'], ...appRoleStatements.admin },
  member: {
    organization: [],
    member: [],
    invitation: [],
    team: [],
    ac: ['read'],
    activity: [],
    ...appRoleStatements.member,
  },
} satisfies Record<string, Permissions>

export type BuiltInRole = keyof typeof builtInRoleStatements
export const builtInRoles = Object.keys(builtInRoleStatements) as BuiltInRole[]

export const roles = {
  owner: ac.newRole(builtInRoleStatements.owner),
  admin: ac.newRole(builtInRoleStatements.admin),
  member: ac.newRole(builtInRoleStatements.member),
}

export function isBuiltInRole(role: string): role is BuiltInRole {
  return Object.hasOwn(builtInRoleStatements, role)
}

/** A member's roles: stored comma-separated ("admin,billing-clerk"), compared trimmed (as Better Auth does). */
export function parseRoleList(role: string | string[]): string[] {
  return (Array.isArray(role) ? role : [role])
    .flatMap((part) => part.split(','))
    .map((part) => part.trim())
    .filter(Boolean)
}

/** What a set of roles grants: the union of each role's statements (built-in, or a custom role's stored ones). */
export function grantedPermissions(
  roleList: string[],
  customRoles: Record<string, Permissions | undefined>,
): Record<Resource, Action[]> {
  const granted = Object.fromEntries(
    Object.keys(statements).map((resource) => [resource, new Set<Action>()]),
  ) as Record<Resource, Set<Action>>
  for (const role of roleList) {
    const own: Permissions | undefined = isBuiltInRole(role) ? builtInRoleStatements[role] : customRoles[role]
    for (const [resource, actions] of Object.entries(own ?? {})) {
      if (!Object.hasOwn(statements, resource)) continue
      for (const action of actions ?? []) granted[resource as Resource].add(action)
    }
  }
  return Object.fromEntries(Object.entries(granted).map(([resource, actions]) => [resource, [...actions]])) as Record<
    Resource,
    Action[]
  >
}

/** Whether granted permissions include every action requested (a check passes if any of the roles grants it). */
export function allows(
  granted: Partial<Record<Resource, readonly Action[]>>,
  requested: Partial<Record<Resource, readonly Action[]>>,
): boolean {
  return Object.entries(requested).every(([resource, actions]) =>
    (actions ?? []).every((action) => granted[resource as Resource]?.includes(action) ?? false),
  )
}

/** The spec's denial text for a refused request (Better Auth's wording, translated on the client by code). */
export function denialMessage(requested: Permissions): string {
  const resource = Object.keys(requested)[0] ?? 'unknown'
  return `You are not allowed to access resource: ${resource}`
}

/**
 * Whether someone holding `held` (one permission set per role they have) may hand out a role granting `granted`, or
 * shape a custom role to grant it: it must lie within ONE of their roles, since a check passes when one role grants
 * all it asks. Whatever the receiver can then do through that role, the giver could already do. Nobody gives away
 * what they do not hold (an admin cannot mint an "owner in all but name" custom role and take it).
 */
export function mayGrant(
  held: readonly Partial<Record<Resource, readonly Action[]>>[],
  granted: Partial<Record<Resource, readonly Action[]>>,
): boolean {
  return held.some((own) => allows(own, granted))
}
