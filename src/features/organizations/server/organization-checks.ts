import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { and, eq } from 'drizzle-orm'
import { isValidRoleName, isValidSlug, organizationLimits } from '#/features/organizations/organization-names'
import { parseRoleList, type Resource, statements } from '#/lib/access-control'
import { emailField } from '#/lib/account-rules'
import { isLocale } from '#/paraglide/runtime'
import { isUploadedPicture, type MalformedRequest } from '#/server/auth/request-checks'
import type { Database } from '#/server/db/client'
import { members, organizations } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { countInvitationEmail, giveBackInvitationEmails, invitationEmailsCounted } from './invitation-email-limits'
import { recordActivity } from './organization-activity'
import { customRoleNamedBy, refuseGrantsBeyondCaller } from './role-grants'

type Body = Record<string, unknown>

const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value)

function organizationFieldsError(fields: Body, appUrl: string): MalformedRequest | null {
  const { name, slug, logo } = fields
  if (name !== undefined) {
    if (typeof name !== 'string' || name.trim() === '') {
      return { code: 'ORGANIZATION_NAME_REQUIRED', message: 'Organization name is required' }
    }
    if (name.trim().length > organizationLimits.nameMax) {
      return { code: 'ORGANIZATION_NAME_TOO_LONG', message: 'Organization name is too long' }
    }
  }
  if (slug !== undefined && (typeof slug !== 'string' || !isValidSlug(slug))) {
    return {
      code: 'ORGANIZATION_SLUG_INVALID',
      message: 'The slug must be 3 to 48 lowercase letters, digits and single hyphens',
    }
  }
  if (logo !== undefined && logo !== null && logo !== '' && !isUploadedPicture(logo, appUrl, 'logos')) {
    return { code: 'ORGANIZATION_LOGO_INVALID', message: 'Upload the logo: an address from elsewhere is not accepted' }
  }
  return null
}

/** A custom role's permissions must name known resources AND known actions (Better Auth checks only resources). */
function permissionError(permission: unknown): MalformedRequest | null {
  if (permission === undefined) return null
  const invalid = { code: 'PERMISSION_INVALID', message: 'The permission names an unknown resource or action' }
  if (!isObject(permission)) return invalid
  for (const [resource, actions] of Object.entries(permission)) {
    if (!Object.hasOwn(statements, resource) || !Array.isArray(actions)) return invalid
    const known: readonly string[] = statements[resource as Resource]
    if (!actions.every((action) => typeof action === 'string' && known.includes(action))) return invalid
  }
  return null
}

function roleNameError(role: unknown): MalformedRequest | null {
  if (role === undefined) return null
  return typeof role === 'string' && isValidRoleName(role.trim())
    ? null
    : {
        code: 'ROLE_NAME_INVALID',
        message: 'A role name is 1 to 32 lowercase letters, digits and hyphens, starting with a letter',
      }
}

function teamNameError(name: unknown): MalformedRequest | null {
  if (name === undefined) return null
  if (typeof name !== 'string' || name.trim() === '')
    return { code: 'TEAM_NAME_REQUIRED', message: 'Team name is required' }
  return name.trim().length > organizationLimits.teamNameMax
    ? { code: 'TEAM_NAME_TOO_LONG', message: 'Team name is too long' }
    : null
}

/**
 * What is wrong with an organization request that Better Auth would store as it is (any name length, any slug, a
 * logo from elsewhere, a role name with a comma, an action no resource has); null when it is fine.
 */
export function organizationRequestError(path: string, body: unknown, appUrl: string): MalformedRequest | null {
  if (!path.startsWith('/organization/') || !isObject(body)) return null
  switch (path) {
    case '/organization/create':
      if (body.userId !== undefined) {
        return { code: 'USER_ID_NOT_ALLOWED', message: 'An organization is created for the signed-in user' }
      }
      return organizationFieldsError({ name: body.name ?? '', slug: body.slug ?? '', logo: body.logo }, appUrl)
    case '/organization/update':
      return isObject(body.data) ? organizationFieldsError(body.data, appUrl) : null
    case '/organization/create-role':
      return roleNameError(body.role ?? '') ?? permissionError(body.permission ?? {})
    case '/organization/update-role':
      return isObject(body.data) ? (roleNameError(body.data.roleName) ?? permissionError(body.data.permission)) : null
    case '/organization/invite-member': {
      if (typeof body.email !== 'string' || !emailField.safeParse(body.email).success) {
        return { code: 'INVALID_EMAIL', message: 'Invalid email' }
      }
      if (body.locale !== undefined && (typeof body.locale !== 'string' || !isLocale(body.locale))) {
        return { code: 'INVALID_LOCALE', message: 'Invalid locale' }
      }
      return null
    }
    case '/organization/create-team':
      return teamNameError(body.name ?? '')
    case '/organization/update-team':
      return isObject(body.data) ? teamNameError(body.data.name) : null
    default:
      return null
  }
}

/** Endpoints that name an organization to switch to or read: Better Auth clears the active one before refusing. */
const organizationLookups = new Set([
  '/organization/set-active',
  '/organization/get-full-organization',
  '/organization/get-organization',
])

type Context = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]

/**
 * Refuses a switch to (or a read of) an organization the caller is not in before Better Auth handles it: Better Auth
 * would first clear the session's active organization, leaving the caller's own work without one.
 */
async function refuseForeignOrganization(db: Database, ctx: Context): Promise<void> {
  const source = ((ctx.path === '/organization/set-active' ? ctx.body : ctx.query) ?? {}) as Body
  const id = typeof source.organizationId === 'string' ? source.organizationId : undefined
  const slug = typeof source.organizationSlug === 'string' ? source.organizationSlug : undefined
  if (!id && !slug) return
  const session = await getSessionFromCtx(ctx)
  if (!session) return // Better Auth answers 401
  const [membership] = await db
    .select({ id: members.id })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(and(eq(members.userId, session.user.id), id ? eq(organizations.id, id) : eq(organizations.slug, slug ?? '')))
  if (!membership) {
    throw new APIError('FORBIDDEN', {
      code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
      message: 'User is not a member of the organization',
    })
  }
}

/**
 * Renaming a custom role that members hold would leave their stored role naming nothing (and a later role of the old
 * name would grant them its permissions): like deleting, it waits until nobody holds the role.
 */
async function refuseRenamingHeldRole(db: Database, ctx: Context): Promise<void> {
  const body = (ctx.body ?? {}) as Body
  const data = isObject(body.data) ? body.data : {}
  if (typeof data.roleName !== 'string') return
  const session = await getSessionFromCtx(ctx)
  if (!session) return
  const organizationId =
    typeof body.organizationId === 'string'
      ? body.organizationId
      : (session.session as { activeOrganizationId?: string | null }).activeOrganizationId
  if (!organizationId) return
  const role = await customRoleNamedBy(db, organizationId, body)
  if (!role || role.role === data.roleName.trim()) return
  const holders = await db
    .select({ role: members.role })
    .from(members)
    .where(eq(members.organizationId, organizationId))
  if (holders.some((member) => parseRoleList(member.role).includes(role.role))) {
    throw new APIError('BAD_REQUEST', {
      code: 'ROLE_IS_ASSIGNED_TO_MEMBERS',
      message: 'Cannot rename a role that is assigned to members. Please reassign the members first',
    })
  }
}

/** Role changes have no organization hooks of their own: their activity entries are written once they succeeded. */
const roleActivity = {
  '/organization/create-role': 'role_created',
  '/organization/update-role': 'role_updated',
  '/organization/delete-role': 'role_deleted',
} as const

export function organizationChecks(db: Database) {
  return {
    id: 'hatch-organization-checks',
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path?.startsWith('/organization/') ?? false,
          handler: createAuthMiddleware(async (ctx) => {
            const error = organizationRequestError(ctx.path, ctx.body, getEnv().APP_URL)
            if (error) throw new APIError('BAD_REQUEST', error)
            if (organizationLookups.has(ctx.path)) await refuseForeignOrganization(db, ctx)
            if (ctx.path === '/organization/update-role') await refuseRenamingHeldRole(db, ctx)
            await refuseGrantsBeyondCaller(db, ctx)
            if (ctx.path === '/organization/invite-member') {
              await invitationEmailsCounted.set(await countInvitationEmail(db, ctx))
            }
          }),
        },
      ],
      after: [
        {
          // Better Auth refused the invitation after it was counted: no email went, so its counts are given back.
          matcher: (ctx) => ctx.path === '/organization/invite-member',
          handler: createAuthMiddleware(async (ctx) => {
            const counted = await invitationEmailsCounted.get()
            await invitationEmailsCounted.set(undefined)
            if (counted && ctx.context.returned instanceof Error) await giveBackInvitationEmails(db, counted)
          }),
        },
        {
          // Leaving runs none of the plugin's member hooks.
          matcher: (ctx) => ctx.path === '/organization/leave',
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned
            if (returned instanceof Error || returned instanceof Response || !returned) return
            const organizationId = (ctx.body as Body | undefined)?.organizationId
            const session = await getSessionFromCtx(ctx)
            if (!session || typeof organizationId !== 'string') return
            await recordActivity(db, {
              organizationId,
              actor: { id: session.user.id, name: session.user.name },
              action: 'member_left',
              details: { name: session.user.name, email: session.user.email },
            })
          }),
        },
        {
          matcher: (ctx) => ctx.path !== undefined && Object.hasOwn(roleActivity, ctx.path),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned
            if (returned instanceof Error || returned instanceof Response) return
            const result = returned as { roleData?: { organizationId?: string; role?: string } } | undefined
            const body = (ctx.body ?? {}) as Body
            const organizationId = result?.roleData?.organizationId ?? (body.organizationId as string | undefined)
            const session = await getSessionFromCtx(ctx)
            const activeOrganizationId = (session?.session as { activeOrganizationId?: string | null } | undefined)
              ?.activeOrganizationId
            const where = organizationId ?? activeOrganizationId
            if (!session || !where) return
            const role = String(result?.roleData?.role ?? body.roleName ?? body.role ?? '')
            await recordActivity(db, {
              organizationId: where,
              actor: { id: session.user.id, name: session.user.name },
              action: roleActivity[ctx.path as keyof typeof roleActivity],
              details: { role },
            })
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
