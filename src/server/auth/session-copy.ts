import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { expireCookie } from 'better-auth/cookies'

/** Auth requests that change something; reads (GET) may trust the session's signed copy. */
const isChange = (ctx: { method?: string; request?: Request }) => (ctx.request?.method ?? ctx.method) === 'POST'

/**
 * The signed session copy in a cookie (SESSION_CACHE_SECONDS) answers reads only:
 * - a change is checked against the database: the copy (and its chunks, when it is split across several cookies)
 *   is taken out of the request, so a session revoked on another device cannot add a passkey or change a password
 *   while its copy is still fresh;
 * - after a change the copy goes: some endpoints change the session in the database without rewriting it (creating,
 *   leaving or deleting an organization moves the active one), and one written at the start of the request may
 *   already be stale. The next read takes the database's word and writes a new copy.
 * Placed just before tanstackStartCookies, so its after-hook runs after every other plugin's.
 */
export function sessionCopyOnlyForReads() {
  return {
    id: 'hatch-session-copy-only-for-reads',
    hooks: {
      before: [
        {
          matcher: isChange,
          handler: createAuthMiddleware(async (ctx) => {
            const cookie = ctx.headers?.get('cookie')
            if (!cookie) return
            const copy = ctx.context.authCookies.sessionData.name
            const pairs = cookie.split(';').map((pair) => pair.trim())
            const kept = pairs.filter((pair) => {
              const name = pair.slice(0, pair.indexOf('='))
              return name !== copy && !name.startsWith(`${copy}.`)
            })
            if (kept.length === pairs.length) return
            return { context: { headers: new Headers({ cookie: kept.join('; ') }) } }
          }),
        },
      ],
      after: [
        {
          matcher: isChange,
          handler: createAuthMiddleware(async (ctx) => {
            expireCookie(ctx, ctx.context.authCookies.sessionData)
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
