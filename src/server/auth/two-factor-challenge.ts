import type { BetterAuthPlugin } from 'better-auth'
import { createAuthEndpoint } from 'better-auth/api'
import type { Auth } from './auth'

/** The cookie Better Auth's twoFactor plugin sets when a password sign-in still needs the second factor. */
const challengeCookieName = 'two_factor'

/**
 * GET /api/auth/two-factor/challenge-status: whether this browser is between a password sign-in and its second
 * factor. Better Auth itself checks the signed cookie; the challenge must not be used, given up or expired.
 */
export function twoFactorChallengeStatus() {
  return {
    id: 'hatch-two-factor-challenge-status',
    endpoints: {
      twoFactorChallengeStatus: createAuthEndpoint('/two-factor/challenge-status', { method: 'GET' }, async (ctx) => {
        const cookie = ctx.context.createAuthCookie(challengeCookieName)
        const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret)
        if (!identifier) return ctx.json({ pending: false })
        const challenge = await ctx.context.internalAdapter.findVerificationValue(identifier)
        return ctx.json({ pending: Boolean(challenge && new Date(challenge.expiresAt) > new Date()) })
      }),
    },
  } satisfies BetterAuthPlugin
}

/**
 * Whether the request's browser holds a genuine, pending two-factor challenge. The challenge page says so otherwise
 * instead of offering a form that can only fail.
 */
export async function hasPendingTwoFactorChallenge(auth: Auth, headers: Headers): Promise<boolean> {
  const { pending } = await auth.api.twoFactorChallengeStatus({ headers })
  return pending
}
