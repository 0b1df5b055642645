import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { parseSetCookieHeader } from 'better-auth/cookies'

/**
 * "Remember me" off must end the session with the browser. Better Auth then sets the session cookie without an expiry,
 * but the multi-session plugin copies the session into a cookie of its own that lasts 7 days, from which
 * list-device-sessions and set-active would bring the session back after a restart. This re-issues that copy as a
 * browser-session cookie too. It must come after multiSession() in the plugin list, so its hook runs later.
 */
export function rememberMeCoversDeviceSessions() {
  return {
    id: 'hatch-remember-me',
    hooks: {
      after: [
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            const session = ctx.context.newSession?.session
            if (!session) return
            const setCookies = parseSetCookieHeader(ctx.context.responseHeaders?.get('set-cookie') ?? '')
            const sessionCookie = ctx.context.authCookies.sessionToken
            const issued = setCookies.get(sessionCookie.name)
            const endsWithBrowser = issued?.value && issued['max-age'] === undefined && issued.expires === undefined
            if (!endsWithBrowser) return
            const copyName = `${sessionCookie.name}_multi-${session.token.toLowerCase()}`
            if (!setCookies.has(copyName)) return
            const { maxAge: _lasting, ...attributes } = sessionCookie.attributes
            await ctx.setSignedCookie(copyName, session.token, ctx.context.secret, attributes)
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
