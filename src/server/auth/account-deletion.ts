import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { deleteAfterSignInMinutes } from '#/lib/account-rules'

/**
 * Deleting the account needs re-authentication, checked here rather than trusted to the form: the password when the
 * account has one, otherwise a sign-in within the last `deleteAfterSignInMinutes`. Left alone, Better Auth deletes
 * without a password for any session younger than a day, so a borrowed session could delete the account.
 */
export function accountDeletionGuard() {
  return {
    id: 'hatch-account-deletion',
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === '/delete-user',
          handler: createAuthMiddleware(async (ctx) => {
            const { password } = (ctx.body ?? {}) as { password?: unknown }
            // Better Auth checks a given password against the stored one.
            if (typeof password === 'string' && password !== '') return
            const session = await getSessionFromCtx(ctx, { disableCookieCache: true })
            if (!session) return // Better Auth answers 401
            const credential = await ctx.context.internalAdapter.findCredentialAccount(session.user.id)
            if (credential?.password) {
              throw new APIError('BAD_REQUEST', {
                code: 'DELETE_ACCOUNT_NEEDS_PASSWORD',
                message: 'Enter your password to delete the account',
              })
            }
            const signedInAt = new Date(session.session.createdAt).getTime()
            if (!(Date.now() - signedInAt < deleteAfterSignInMinutes * 60_000)) {
              throw new APIError('FORBIDDEN', {
                code: 'DELETE_ACCOUNT_NEEDS_RECENT_SIGN_IN',
                message: `Sign in again, then delete the account within ${deleteAfterSignInMinutes} minutes`,
              })
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
