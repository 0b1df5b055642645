import { sso } from '@better-auth/sso'

/**
 * The plugin's endpoints for managing connections. Hatch manages them through its own procedures (sso-router.ts:
 * organization permissions, the URL guard, its own domain check, no client secret in an answer), so these are off.
 */
export const ssoManagementPaths = [
  '/sso/register',
  '/sso/providers',
  '/sso/get-provider',
  '/sso/update-provider',
  '/sso/delete-provider',
  '/sso/request-domain-verification',
  '/sso/verify-domain',
  // The shared OpenID callback: Hatch registers a callback per connection, which its guards know.
  '/sso/callback',
]

/**
 * Better Auth's SSO plugin as Hatch uses it: sign-in and the protocol endpoints only. A connection signs nobody in
 * until its domain is verified; SAML responses must answer a request this app made (no identity-provider-initiated
 * sign-in), carry signed assertions with timestamps, and are refused when replayed. Memberships are Hatch's to make
 * (sso-guards.ts), within the plan's limit and in the activity log, so the plugin's own provisioning is off.
 */
export function ssoPlugin() {
  return sso({
    domainVerification: { enabled: true },
    organizationProvisioning: { disabled: true },
    // An address the identity provider asserts is its to vouch for only inside the verified domain (the guards).
    trustEmailVerified: false,
    saml: {
      enableInResponseToValidation: true,
      allowIdpInitiated: false,
      requireTimestamps: true,
      // Said explicitly: without it samlify allows no clock difference at all between the two servers.
      clockSkew: 5 * 60_000,
      algorithms: { onDeprecated: 'reject' },
    },
  })
}
