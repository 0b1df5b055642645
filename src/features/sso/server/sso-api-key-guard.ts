import { defaultKeyHasher } from '@better-auth/api-key'
import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import { apiKeyHeader } from '#/server/auth/api-key-header'
import type { Database } from '#/server/db/client'
import { apiKeys, users } from '#/server/db/schema'
import { getSiteSettings } from '#/server/settings'
import { emailDomainOf } from '../sso-rules'
import { mustUseSso } from './sso-guards'
import { domainsRequiringSso } from './sso-required-domains'

async function ownerOfKey(db: Database, key: string) {
  const [owner] = await db
    .select({ id: users.id, email: users.email })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.referenceId))
    .where(eq(apiKeys.key, await defaultKeyHasher(key)))
  return owner
}

/**
 * API keys of someone who must use single sign-on are refused while they must, whenever the key was made: the identity
 * provider decides who acts for the organization, and a key would go around it (an account the provider disabled
 * would keep working through its keys). Checked where a key becomes a session, before the api-key plugin answers, so
 * tRPC, MCP and get-session all refuse it. Must be listed before that plugin, whose hook ends get-session; so the
 * key's owner is not known yet and is looked up here, but only while some domain requires SSO (the cached set).
 */
export function ssoRequirementForApiKeys(db: Database) {
  return {
    id: 'hatch-sso-requirement-api-keys',
    hooks: {
      before: [
        {
          matcher: (ctx) => Boolean(ctx.headers?.get(apiKeyHeader)),
          handler: createAuthMiddleware(async (ctx) => {
            const key = ctx.headers?.get(apiKeyHeader)
            if (!key || !(await getSiteSettings(db)).apps.sso.enabled) return
            const domains = await domainsRequiringSso(db)
            if (domains.size === 0) return
            const owner = await ownerOfKey(db, key)
            // An unknown key is the api-key plugin's to refuse.
            if (!owner || !domains.has(emailDomainOf(owner.email)) || !(await mustUseSso(db, owner))) return
            throw new APIError('FORBIDDEN', {
              code: 'API_KEY_SSO_REQUIRED',
              message: "Your organization requires single sign-on: its members' API keys do not work while it does",
            })
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
