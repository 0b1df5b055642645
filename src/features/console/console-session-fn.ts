import { createServerFn } from '@tanstack/react-start'
import { getRequestHeaders } from '@tanstack/react-start/server'
import { chooseActiveOrganization } from '#/features/organizations/server'
import type { ConsoleSession } from '#/lib/console-session'
import { getLocale } from '#/lib/i18n'
import { getAuth } from '#/server/auth/auth'
import { loadOrganizationAccess, readMemberships, readOrganizationAccess } from '#/server/auth/organization-access'
import { readSession, sessionCopySeconds } from '#/server/auth/session-reads'
import { getDb } from '#/server/db/database'
import { isAppAdmin } from '#/server/trpc/init'

/**
 * Everything the console frame needs on the server before it renders: the signed-in user, whether they are an app
 * admin, the active organization with what their roles grant there, and the organizations they can switch to.
 * A session whose organization is gone (deleted, or the user was removed) moves to another one here.
 */
export const fetchConsoleSession = createServerFn({ method: 'GET' }).handler(
  async (): Promise<ConsoleSession | null> => {
    const headers = new Headers(getRequestHeaders())
    const auth = getAuth()
    const { session } = await readSession(auth, headers)
    if (!session) return null
    const db = getDb()
    const { id, name, email, emailVerified, image, username, twoFactorEnabled, isAnonymous, role } = session.user
    const activeId = (session.session as { activeOrganizationId?: string | null }).activeOrganizationId
    const rememberMs = sessionCopySeconds(auth) * 1000
    let access = activeId ? await readOrganizationAccess(db, id, activeId, rememberMs) : null
    if (!access) {
      const chosen = await chooseActiveOrganization(db, { id, name }, getLocale())
      await auth.api.setActiveOrganization({ headers, body: { organizationId: chosen } })
      access = await loadOrganizationAccess(db, id, chosen)
    }
    if (!access) throw new Error('the active organization could not be chosen')
    return {
      user: {
        id,
        name,
        email,
        emailVerified,
        image: image ?? null,
        username: username ?? null,
        twoFactorEnabled: twoFactorEnabled === true,
        isAnonymous: isAnonymous ?? false,
      },
      isAppAdmin: isAppAdmin({ role }),
      organization: access.organization,
      member: access.member,
      permissions: access.permissions,
      rolePermissions: access.rolePermissions,
      organizations: await readMemberships(db, id, rememberMs),
    }
  },
)
