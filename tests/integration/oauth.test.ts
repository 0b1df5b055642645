import { createTRPCClient, httpLink } from '@trpc/client'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuth } from '#/server/auth/auth'
import { updateSiteSettings } from '#/server/settings'
import { handleTrpcRequest } from '#/server/trpc/handler'
import type { AppRouter } from '#/server/trpc/root'
import { startTestOidcProvider, type TestOidcProvider } from '../support/oidc-provider'
import { authRequest, cookieHeaderOf, errorCodeOf, testOrigin as origin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// A real OpenID provider, configured the way an operator would: OAUTH_PROVIDERS, read when the server starts.
let oidc: TestOidcProvider
beforeAll(async () => {
  oidc = await startTestOidcProvider({ appUrl: origin })
  process.env.OAUTH_PROVIDERS = JSON.stringify([oidc.config])
})
afterAll(() => oidc.close())

describe.each(coreEngines)('generic OAuth sign-in on %s', (engine) => {
  let database: FreshDatabase
  let auth: ReturnType<typeof createAuth>
  let sessionCookie = ''

  const post = (path: string, body: unknown) =>
    authRequest(auth, path, { body, ip: '198.51.100.20', cookie: sessionCookie })
  const startSignIn = () =>
    post('/sign-in/social', { provider: oidc.config.id, callbackURL: '/en/console', errorCallbackURL: '/en/sign-in' })
  const startLink = () => post('/link-social', { provider: oidc.config.id, callbackURL: '/en/console/account' })
  /** The sign-in methods the pages show, as every visitor's browser receives them. */
  const shownProviders = async () => {
    const client = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: 'http://localhost/api/trpc',
          transformer: superjson,
          fetch: (input, init) => handleTrpcRequest(new Request(input, init), database.connection.db),
        }),
      ],
    })
    return (await client.settings.public.query()).authMethods.oauthProviders
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    auth = createAuth(database.connection.db)
    const signedUp = await post('/sign-up/email', { name: 'Ada', email: 'ada@example.com', password: 'engine1843' })
    expect(signedUp.status).toBe(200)
    sessionCookie = cookieHeaderOf(signedUp)
  })
  afterAll(() => database.dispose())

  it('offers the provider and sends sign-in and linking to its authorization endpoint', async () => {
    expect(await shownProviders()).toEqual([{ id: 'hatch-id', name: 'Hatch ID' }])
    for (const response of [await startSignIn(), await startLink()]) {
      expect(response.status).toBe(200)
      const { url } = (await response.json()) as { url: string }
      const authorization = new URL(url)
      expect(authorization.origin).toBe(oidc.issuer)
      expect(authorization.searchParams.get('redirect_uri')).toBe(`${origin}/api/auth/callback/hatch-id`)
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    }
  })

  it('with generic OAuth switched off, hides the button and refuses sign-in and linking on the server', async () => {
    await updateSiteSettings(database.connection.db, { authGenericOauth: false })
    try {
      expect(await shownProviders()).toEqual([])
      for (const response of [await startSignIn(), await startLink()]) {
        expect(response.status).toBe(400)
        expect(await errorCodeOf(response)).toBe('SIGN_IN_METHOD_IS_NOT_ENABLED')
      }
    } finally {
      await updateSiteSettings(database.connection.db, { authGenericOauth: true })
    }
    expect((await startSignIn()).status).toBe(200)
  })

  it('refuses to unlink the last sign-in method', async () => {
    const list = await authRequest(auth, '/list-accounts', { cookie: sessionCookie })
    const accounts = (await list.json()) as { id: string; providerId: string }[]
    expect(accounts.map(({ providerId }) => providerId)).toEqual(['credential'])
    const refused = await post('/unlink-account', { accountId: accounts[0]?.id })
    expect(refused.status).toBe(400)
    expect(await errorCodeOf(refused)).toBe('FAILED_TO_UNLINK_LAST_ACCOUNT')
  })
})
