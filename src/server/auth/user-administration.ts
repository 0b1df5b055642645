import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import { impersonationCookie, impersonationMinutes } from '#/lib/impersonation'
import { recordAudit } from '../audit-log'
import type { Database } from '../db/client'
import { users } from '../db/schema'

/** Admin endpoints a browser may call directly: impersonation has to set the session cookie. */
const browserAdminPaths = new Set(['/admin/impersonate-user', '/admin/stop-impersonating'])

/** Whether a ban is in force now (an expired one is lifted by Better Auth at the next sign-in). */
export function isBanActive(user: { banned?: boolean | null; banExpires?: Date | string | null }): boolean {
  if (!user.banned) return false
  return !user.banExpires || new Date(user.banExpires).getTime() > Date.now()
}

async function personOf(db: Database, id: string) {
  const [person] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, id))
  return person
}

/**
 * How Hatch runs Better Auth's admin plugin:
 * - Users are managed through the console's tRPC procedures (users.*), which record every change in the audit log;
 *   the plugin's HTTP endpoints answer only server-side calls, except impersonation, which sets cookies.
 * - A banned user who signs in is told why and until when (the plugin's own refusal says neither).
 * - Impersonation is recorded when it starts and stops, and a readable cookie lets every page show the banner.
 * It must come before admin() in the plugin list, so its ban check runs first.
 */
export function userAdministration(db: Database) {
  return {
    id: 'hatch-user-administration',
    init() {
      return {
        options: {
          databaseHooks: {
            session: {
              create: {
                before: async (session) => {
                  const [user] = await db
                    .select({ banned: users.banned, banReason: users.banReason, banExpires: users.banExpires })
                    .from(users)
                    .where(eq(users.id, session.userId))
                  if (!user || !isBanActive(user)) return
                  throw new APIError('FORBIDDEN', {
                    code: 'BANNED_USER',
                    message: `This account is suspended: ${user.banReason ?? ''}`,
                    banReason: user.banReason ?? '',
                    banExpires: user.banExpires?.toISOString() ?? null,
                  })
                },
              },
            },
          },
        },
      }
    },
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path?.startsWith('/admin/') ?? false,
          handler: createAuthMiddleware(async (ctx) => {
            if (ctx.request && !browserAdminPaths.has(ctx.path)) {
              throw new APIError('FORBIDDEN', {
                code: 'USE_THE_CONSOLE_FOR_USERS',
                message: 'Manage users in the console (the users.* API), which records each change',
              })
            }
            if (ctx.path !== '/admin/stop-impersonating') return
            const session = await getSessionFromCtx(ctx)
            const adminId = (session?.session as { impersonatedBy?: string | null } | undefined)?.impersonatedBy
            if (!session || !adminId) return // Better Auth refuses it
            const admin = await personOf(db, adminId)
            if (!admin) return
            await recordAudit(db, {
              actor: admin,
              action: 'impersonation_stopped',
              target: { id: session.user.id, name: session.user.name, email: session.user.email },
            })
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === '/admin/impersonate-user',
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned
            if (!returned || returned instanceof Error || returned instanceof Response) return
            const { session, user: target } = returned as {
              session?: { impersonatedBy?: string | null }
              user?: { id: string; name: string; email: string }
            }
            const admin = session?.impersonatedBy ? await personOf(db, session.impersonatedBy) : undefined
            if (!admin || !target) return
            await recordAudit(db, {
              actor: admin,
              action: 'impersonation_started',
              target: { id: target.id, name: target.name, email: target.email },
            })
            ctx.setCookie(
              impersonationCookie,
              JSON.stringify({ id: target.id, name: target.name, email: target.email }),
              {
                path: '/',
                sameSite: 'lax',
                secure: ctx.context.authCookies.sessionToken.attributes.secure,
                maxAge: impersonationMinutes * 60,
              },
            )
          }),
        },
        {
          matcher: (ctx) => ctx.path === '/admin/stop-impersonating' || ctx.path === '/sign-out',
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned
            if (returned instanceof Error || (returned instanceof Response && !returned.ok)) return
            ctx.setCookie(impersonationCookie, '', { path: '/', maxAge: 0 })
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
