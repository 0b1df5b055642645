import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { parseSetCookieHeader, setSessionCookie } from 'better-auth/cookies'

/**
 * A sign-in sent with a stale session cookie (a session revoked meanwhile, say by a password reset) could end
 * signed out: the anonymous plugin's after-hook reads the request's cookie, Better Auth finds no such session and
 * expires the session cookie, overwriting the one the sign-in had just set. The new session is fine; this sets its
 * cookie again. It must come right after anonymous() in the plugin list, so its hook runs next.
 */
export function keepNewSessionCookie() {
  return {
    id: 'hatch-keep-new-session-cookie',
    hooks: {
      after: [
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            const newSession = ctx.context.newSession
            if (!newSession) return
            const name = ctx.context.authCookies.sessionToken.name
            const issued = parseSetCookieHeader(ctx.context.responseHeaders?.get('set-cookie') ?? '').get(name)
            if (!issued || issued.value) return
            const dontRememberMe = (ctx.body as { rememberMe?: unknown } | undefined)?.rememberMe === false
            await setSessionCookie(ctx, newSession, dontRememberMe)
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
