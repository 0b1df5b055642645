import { defineAppAuth } from '#/server/auth/app-auth'
import { getEnv } from '#/server/env'
import { ssoProviders } from './schema'
import { ssoRequirementForApiKeys } from './sso-api-key-guard'
import {
  checkSsoAccountLink,
  checkSsoNewUser,
  identityProviderOrigins,
  ssoRequirement,
  ssoSessionGate,
} from './sso-guards'
import { ssoManagementPaths, ssoPlugin } from './sso-plugin'

/**
 * Single sign-on in sign-in: Better Auth's SSO plugin and its table, the guards that let an identity provider sign in
 * only its verified domain's people (in its organization, within the plan), and "members must use SSO".
 */
export const authExtension = defineAppAuth({
  name: 'sso',
  tables: { ssoProvider: ssoProviders },
  disabledPaths: ssoManagementPaths,
  // Identity providers on private addresses are trusted only with SSO_ALLOW_PRIVATE (local development, tests).
  trustedOrigins: (db) => (getEnv().SSO_ALLOW_PRIVATE ? () => identityProviderOrigins(db) : undefined),
  keyRefusalCodes: ['API_KEY_SSO_REQUIRED'],
  // Before the api-key plugin: its hook answers get-session with the key's session, and nothing runs after it.
  earlyPlugins: (db) => [ssoRequirementForApiKeys(db)],
  plugins: (db) => [ssoPlugin(), ssoRequirement(db)],
  beforeUserCreated: checkSsoNewUser,
  beforeAccountCreated: checkSsoAccountLink,
  beforeSessionCreated: ssoSessionGate,
})
