import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, sendVerificationEmailFn } from 'better-auth/api'
import { deleteSessionCookie } from 'better-auth/cookies'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { users } from '../db/schema'
import { getSiteSettings } from '../settings'

/** Sign-ins that prove only a password: magic links, codes and providers verify the address themselves. */
const passwordSignIns = new Set(['/sign-in/email', '/sign-in/username'])

/**
 * The "email verification required" site setting, live (Better Auth's own switch is fixed at start-up). While it is
 * on, a password sign-in with an unverified address is refused after the password was checked, and a new link is
 * sent; sign-up creates the account and sends the link but signs nobody in. It must come after every plugin that
 * sets the session cookie, so its sign-up hook has the last word on it.
 */
export function emailVerificationGate(db: Database) {
  return {
    id: 'hatch-email-verification-gate',
    init() {
      return {
        options: {
          databaseHooks: {
            session: {
              create: {
                before: async (session, ctx) => {
                  if (!ctx || !passwordSignIns.has(ctx.path ?? '')) return
                  if (!(await getSiteSettings(db)).emailVerificationRequired) return
                  const [user] = await db.select().from(users).where(eq(users.id, session.userId))
                  if (!user || user.emailVerified || user.isAnonymous) return
                  await sendVerificationEmailFn(ctx, user)
                  throw new APIError('FORBIDDEN', {
                    code: 'EMAIL_NOT_VERIFIED',
                    message: 'Verify your email address first: we sent you a new link',
                  })
                },
              },
            },
          },
        },
      }
    },
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === '/sign-up/email',
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned as { token?: string | null; user?: unknown } | undefined
            if (!returned || returned instanceof Error || returned instanceof Response || !returned.token) return
            if (!(await getSiteSettings(db)).emailVerificationRequired) return
            await ctx.context.internalAdapter.deleteSession(returned.token)
            deleteSessionCookie(ctx)
            return ctx.json({ token: null, user: returned.user, verifyEmailFirst: true })
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
