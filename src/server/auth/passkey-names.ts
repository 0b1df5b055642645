import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { passkeyNameMaxLength } from '#/lib/passkey-name'

/** The paths that store a passkey name (the passkey plugin itself sets no length limit). */
const namingPaths = new Set([
  '/passkey/generate-register-options',
  '/passkey/verify-registration',
  '/passkey/update-passkey',
])

function nameOf(ctx: { body?: unknown; query?: unknown }): unknown {
  const fromBody = (ctx.body as { name?: unknown } | undefined)?.name
  return fromBody ?? (ctx.query as { name?: unknown } | undefined)?.name
}

/** Refuses passkey names longer than `passkeyNameMaxLength`, whatever the client sends. */
export function passkeyNameLimit() {
  return {
    id: 'hatch-passkey-name-limit',
    hooks: {
      before: [
        {
          matcher: (ctx) => namingPaths.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const name = nameOf(ctx)
            if (typeof name === 'string' && name.trim().length > passkeyNameMaxLength) {
              throw new APIError('BAD_REQUEST', {
                code: 'PASSKEY_NAME_TOO_LONG',
                message: `A passkey name can be at most ${passkeyNameMaxLength} characters`,
              })
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
