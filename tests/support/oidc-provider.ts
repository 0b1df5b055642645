// A real OpenID Connect provider (the `oidc-provider` package) for tests of generic OAuth sign-in: discovery, the
// authorization code flow with PKCE and nonce, signed ID tokens and userinfo, all on 127.0.0.1.
// Its development login form accepts any login name and any password; each login name is a user of this provider.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

/** The provider's user behind a login name: a verified address and a name of its own. */
export function oidcTestUser(login: string) {
  const subject = login.trim().toLowerCase()
  // A login name that is an address is that address (single sign-on tests pick the domain).
  const email = subject.includes('@') ? subject : `${subject}@oidc.example.test`
  return { sub: subject, email, email_verified: true, name: `OIDC ${subject.split('@')[0]}` }
}

export interface TestOidcProvider {
  /** The entry for OAUTH_PROVIDERS (src/server/env.ts). */
  config: { id: string; name: string; discoveryUrl: string; clientId: string; clientSecret: string }
  issuer: string
  close(): Promise<void>
}

interface Options {
  /** The app's public origin; Better Auth's callback for every social or generic provider is /api/auth/callback/:id. */
  appUrl: string
  providerId?: string
  name?: string
  port?: number
  /** Where the client may be sent back to, instead of the generic provider's callback (single sign-on tests). */
  redirectUris?: string[]
  /** How the client proves itself at the token endpoint (Better Auth's generic OAuth posts the secret). */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic'
}

/** Starts the provider on 127.0.0.1 (a free port unless one is given) with one client: the app. */
export async function startTestOidcProvider({
  appUrl,
  providerId = 'hatch-id',
  name = 'Hatch ID',
  port = 0,
  redirectUris,
  tokenEndpointAuthMethod = 'client_secret_post',
}: Options): Promise<TestOidcProvider> {
  const clientId = 'hatch-app'
  const clientSecret = 'hatch-app-test-secret-0123456789'
  let handler: ((request: never, response: never) => void) | undefined
  const server: Server = createServer((request, response) => {
    if (handler) handler(request as never, response as never)
    else response.writeHead(503).end()
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris ?? [`${appUrl.replace(/\/$/, '')}/api/auth/callback/${providerId}`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // Better Auth's generic OAuth sends the secret in the token request body when one is configured.
        token_endpoint_auth_method: tokenEndpointAuthMethod,
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    async findAccount(_context: unknown, sub: string) {
      const user = oidcTestUser(sub)
      return { accountId: user.sub, claims: async () => user }
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['hatch-test-oidc-cookie-key'] },
  })
  handler = provider.callback()

  return {
    issuer,
    config: {
      id: providerId,
      name,
      discoveryUrl: `${issuer}/.well-known/openid-configuration`,
      clientId,
      clientSecret,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
