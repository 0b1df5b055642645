import { apiKeyClient } from '@better-auth/api-key/client'
import { passkeyClient } from '@better-auth/passkey/client'
import {
  adminClient,
  anonymousClient,
  emailOTPClient,
  magicLinkClient,
  multiSessionClient,
  oneTapClient,
  organizationClient,
  twoFactorClient,
  usernameClient,
} from 'better-auth/client/plugins'
import { createAuthClient } from 'better-auth/react'
import { ac, roles } from './access-control'
import { passkeyChallengeOrder } from './passkey-challenge'

/** Better Auth's client, on the same origin (/api/auth). */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [
    usernameClient(),
    magicLinkClient(),
    emailOTPClient(),
    twoFactorClient(),
    anonymousClient(),
    passkeyClient(),
    passkeyChallengeOrder,
    apiKeyClient(),
    multiSessionClient(),
    organizationClient({ ac, roles, teams: { enabled: true }, dynamicAccessControl: { enabled: true } }),
    adminClient(),
  ],
})

/**
 * Google one-tap needs the client id at construction, which comes from site settings at run time; the sign-in page
 * builds this client only when one-tap is on.
 */
export function createOneTapClient(clientId: string) {
  return createAuthClient({
    basePath: '/api/auth',
    plugins: [
      oneTapClient({
        clientId,
        autoSelect: false,
        cancelOnTapOutside: true,
        context: 'signin',
        promptOptions: { baseDelay: 1000, maxAttempts: 5 },
      }),
    ],
  })
}
