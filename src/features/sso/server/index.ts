// What the rest of the server may use of single sign-on: the Better Auth plugin, the guards src/server/auth/auth.ts
// composes, and the router for src/server/trpc/root.ts.

export { ssoRequirementForApiKeys } from './sso-api-key-guard'
export {
  checkSsoAccountLink,
  checkSsoNewUser,
  identityProviderOrigins,
  ssoRequirement,
  ssoSessionGate,
} from './sso-guards'
export { ssoManagementPaths, ssoPlugin } from './sso-plugin'
