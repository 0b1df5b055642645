// Enterprise single sign-on end to end against real protocol implementations started here: samlify's SAML identity
// provider, the oidc-provider OpenID provider and a DNS responder for the domain's TXT record. Connections are saved
// through the procedures as the console saves them; sign-ins go through Better Auth's handler as a browser's would.
process.env.SSO_ALLOW_PRIVATE = 'true'

import { and, eq, getTableName, type Table } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { domainRecordName, ssoProviderIdOf } from '#/features/sso/sso-rules'
import { serverApps } from '#/server/apps.gen'
import { members, organizationActivity, ssoProviders, users } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { log } from '#/server/log'
import { answerMcpRequest } from '#/server/mcp'
import { memberLimit } from '#/server/plan-limits'
import { updateSiteSettings } from '#/server/settings'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
  password,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { type DnsServer, startDnsServer } from '../../../../tests/support/dns-server'
import { startTestOidcProvider, type TestOidcProvider } from '../../../../tests/support/oidc-provider'
import { type SamlFault, type SamlIdp, startSamlIdp } from './saml-idp'

const domain = 'acme.example'

interface Connection {
  protocol: 'saml' | 'oidc'
  issuer: string
  clientId: string | null
  domain: string
  domainVerified: boolean
  requireSso: boolean
  record: { name: string; value: string }
}
type SsoView = {
  connection: Connection | null
  serviceProvider: { entityId: string; acsUrl: string; redirectUri: string }
}

let idp: SamlIdp
let dns: DnsServer
beforeAll(async () => {
  idp = await startSamlIdp()
  dns = await startDnsServer()
  const env = getEnv() as { SSO_DNS_SERVERS: string[]; SSO_ALLOW_PRIVATE: boolean }
  env.SSO_DNS_SERVERS = [`${dns.host}:${dns.port}`]
  env.SSO_ALLOW_PRIVATE = true
})
afterAll(async () => {
  await idp.close()
  await dns.close()
})

describe.each(engines)('enterprise single sign-on on %s', (engine) => {
  let database: FreshDatabase
  let app: OrganizationHarness
  let owner: Person
  let organizationId: string
  let providerId: string

  const sso = <T = SsoView>(kind: 'query' | 'mutation', procedure: string, input?: unknown, cookie = owner.cookie) =>
    app.trpc<T>(kind, `sso.${procedure}`, cookie, input)

  /** "Sign in with SSO" as the sign-in page starts it: the identity provider's URL, or the refusal. */
  const startSignIn = (who: { email?: string; organizationSlug?: string }) =>
    app.call<{ url: string }>('/sign-in/sso', {
      body: { ...who, callbackURL: '/en/console', errorCallbackURL: '/en/sign-in?oauth=failed' },
    })

  /** The identity provider's answer, posted by the browser to the ACS URL from the IdP's page (another origin). */
  const postToAcs = (acsUrl: string, SAMLResponse: string, RelayState?: string) =>
    app.auth.handler(
      new Request(acsUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: idp.url,
          'x-hatch-client-ip': '198.51.100.77',
        },
        body: new URLSearchParams({ SAMLResponse, ...(RelayState ? { RelayState } : {}) }),
        redirect: 'manual',
      }),
    )

  /** A whole SAML sign-in: start, the IdP's response (with a fault when asked), the post back. */
  const samlSignIn = async (
    email: string,
    options: { fault?: SamlFault; start?: { email?: string; organizationSlug?: string } } = {},
  ) => {
    const started = await startSignIn(options.start ?? { email })
    expect(started.status, `starting SSO for ${email}`).toBe(200)
    const request = idp.readRequest(started.body.url)
    const response = await idp.respond({
      acsUrl: request.acsUrl,
      audience: request.spEntityId,
      inResponseTo: request.id,
      user: { email, firstName: email.split('@')[0], lastName: 'Test' },
      fault: options.fault,
    })
    const answer = await postToAcs(request.acsUrl, response, request.relayState)
    return { answer, request, response, location: answer.headers.get('location') ?? '' }
  }

  const sessionCookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0] ?? '')
      .filter((pair) => pair.includes('session_token=') && !pair.endsWith('='))
      .join('; ')

  const userByEmail = async (email: string) =>
    (await database.connection.db.select().from(users).where(eq(users.email, email)))[0]

  const roleIn = async (userId: string) =>
    (
      await database.connection.db
        .select({ role: members.role })
        .from(members)
        .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)))
    )[0]?.role

  const activity = async () =>
    (
      await database.connection.db
        .select({ action: organizationActivity.action, details: organizationActivity.details })
        .from(organizationActivity)
        .where(eq(organizationActivity.organizationId, organizationId))
    ).map((entry) => entry.action)

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    app = organizationHarness(database.connection.db)
    owner = await app.signUp('Olivia', { email: `olivia@${domain}` })
    organizationId = await app.createOrganization(owner, 'Acme', 'acme')
    await app.call('/organization/set-active', { body: { organizationId }, cookie: owner.cookie })
    providerId = ssoProviderIdOf(organizationId)
  })
  afterAll(() => database.dispose())

  it('shows what to give the identity provider, saves SAML from a metadata URL, and signs nobody in before the domain is proven', async () => {
    const before = await sso('query', 'get')
    expect(before.data?.connection).toBeNull()
    expect(before.data?.serviceProvider).toEqual({
      entityId: `${testOrigin}/api/auth/sso/saml2/sp/metadata?providerId=${providerId}`,
      acsUrl: `${testOrigin}/api/auth/sso/saml2/sp/acs/${providerId}`,
      redirectUri: `${testOrigin}/api/auth/sso/callback/${providerId}`,
    })

    const refused = await sso('mutation', 'saveSaml', {
      domain,
      source: 'xml',
      metadataXml: '<html>not metadata</html>',
    })
    expect(refused.error?.fieldErrors?.metadataXml).toEqual(['validation_sso_metadata_invalid'])

    const saved = await sso('mutation', 'saveSaml', {
      domain: 'ACME.example',
      source: 'url',
      metadataUrl: idp.metadataUrl,
    })
    expect(saved.error).toBeUndefined()
    const { connection } = (await sso('query', 'get')).data as SsoView
    expect(connection).toMatchObject({ protocol: 'saml', issuer: idp.entityId, domain, domainVerified: false })
    expect(connection?.record.name).toBe(domainRecordName(domain))

    // Not verified yet: the plugin refuses to start, by address and by the organization's slug.
    expect((await startSignIn({ email: `grace@${domain}` })).status).toBe(401)
    expect((await startSignIn({ organizationSlug: 'acme' })).status).toBe(401)
    expect((await startSignIn({ email: 'someone@unknown.example' })).status).toBe(404)
  })

  it('proves the domain with the TXT record: missing, different, then right', async () => {
    const { connection } = (await sso('query', 'get')).data as SsoView
    const check = async () => (await sso<{ result: string }>('mutation', 'verifyDomain')).data?.result

    dns.clear()
    expect(await check()).toBe('record-missing')
    dns.setTxt(domainRecordName(domain), ['v=spf1 -all', 'hatch-sso-verification=someone-elses-token'])
    expect(await check()).toBe('record-different')
    dns.setTxt(domainRecordName(domain), ['v=spf1 -all', connection?.record.value ?? ''])
    expect(connection?.record.value).toMatch(/^hatch-sso-verification=/)
    expect(await check()).toBe('verified')
    expect(((await sso('query', 'get')).data as SsoView).connection?.domainVerified).toBe(true)
    expect(await activity()).toEqual(expect.arrayContaining(['sso_saved', 'sso_domain_verified']))
  })

  it("a colleague's first SAML sign-in creates the account and the membership, and opens the session there", async () => {
    const email = `grace@${domain}`
    const { answer, location } = await samlSignIn(email)
    expect(answer.status).toBe(302)
    expect(new URL(location, testOrigin).pathname).toBe('/en/console')
    const cookie = sessionCookieOf(answer)
    expect(cookie).not.toBe('')

    const grace = await userByEmail(email)
    expect(grace?.name).toBe('grace Test')
    expect(grace?.emailVerified).toBe(true)
    expect(await roleIn(grace?.id ?? '')).toBe('member')
    const session = await app.call<{ session: { activeOrganizationId: string } }>('/get-session', { cookie })
    expect(session.body.session.activeOrganizationId).toBe(organizationId)
    expect(await activity()).toContain('member_joined')

    // The second time (started from the organization's slug) she is the same person, still a member once.
    const again = await samlSignIn(email, { start: { organizationSlug: 'acme' } })
    expect(again.answer.status).toBe(302)
    expect(sessionCookieOf(again.answer)).not.toBe('')
    const memberships = await database.connection.db
      .select()
      .from(members)
      .where(eq(members.userId, grace?.id ?? ''))
    expect(memberships).toHaveLength(1)
  })

  it.each<[SamlFault, string]>([
    ['bad-signature', 'saml_error'],
    ['unsigned', 'saml_error'],
    ['other-idp-key', 'saml_error'],
    ['expired', 'saml_error'],
    ['wrong-audience', 'invalid_saml_response'],
  ])('refuses a response with a %s, logs it, signs nobody in and creates nobody', async (fault, code) => {
    const email = `mallory.${fault}@${domain}`
    const logged = vi.spyOn(log(), 'error')
    const { answer, location } = await samlSignIn(email, { fault })
    expect(logged.mock.calls.some(([fields]) => (fields as { component?: string }).component === 'auth')).toBe(true)
    logged.mockRestore()
    expect(answer.status).toBe(302)
    const back = new URL(location, testOrigin)
    expect(back.pathname).toBe('/en/sign-in')
    expect(back.searchParams.get('oauth')).toBe('failed')
    expect(back.searchParams.get('error')).toBe(code)
    expect(sessionCookieOf(answer)).toBe('')
    expect(await userByEmail(email)).toBeUndefined()
  })

  it('refuses a replayed assertion', async () => {
    const email = `heidi@${domain}`
    const first = await samlSignIn(email)
    expect(sessionCookieOf(first.answer)).not.toBe('')
    const replayed = await postToAcs(first.request.acsUrl, first.response, first.request.relayState)
    expect(replayed.status).toBe(302)
    expect(new URL(replayed.headers.get('location') ?? '', testOrigin).searchParams.get('error')).toBeTruthy()
    expect(sessionCookieOf(replayed)).toBe('')
  })

  it('someone of another domain cannot join through the connection, even when the identity provider vouches for them', async () => {
    const email = 'mallory@other.example'
    const started = await startSignIn({ organizationSlug: 'acme' })
    const request = idp.readRequest(started.body.url)
    const response = await idp.respond({
      acsUrl: request.acsUrl,
      audience: request.spEntityId,
      inResponseTo: request.id,
      user: { email, firstName: 'Mallory' },
    })
    const answer = await postToAcs(request.acsUrl, response, request.relayState)
    const location = answer.headers.get('location') ?? ''
    expect(new URL(location, testOrigin).searchParams.get('error')).toBe('SSO_EMAIL_OUTSIDE_DOMAIN')
    expect(sessionCookieOf(answer)).toBe('')
    expect(await userByEmail(email)).toBeUndefined()
  })

  it('creates SSO accounts while sign-up is closed, for the verified domain only', async () => {
    await updateSiteSettings(database.connection.db, { signUpOpen: false })
    try {
      const { answer } = await samlSignIn(`ivan@${domain}`)
      expect(sessionCookieOf(answer)).not.toBe('')
      const signUp = await app.call('/sign-up/email', {
        body: { name: 'Judy', email: 'judy@example.com', password },
      })
      expect(signUp.code).toBe('SIGN_UP_CLOSED')
    } finally {
      await updateSiteSettings(database.connection.db, { signUpOpen: true })
    }
  })

  it('with single sign-on switched off in Configuration, the page hides it and the server refuses it', async () => {
    await updateSiteSettings(database.connection.db, { apps: { sso: { enabled: false } } })
    try {
      const shown = await app.trpc<{ apps: { sso: { enabled: boolean } } }>('query', 'settings.public', undefined)
      expect(shown.data?.apps.sso.enabled, 'the sign-in page reads it').toBe(false)
      const started = await startSignIn({ email: `grace@${domain}` })
      expect(started.code).toBe('SIGN_IN_METHOD_IS_NOT_ENABLED')
    } finally {
      await updateSiteSettings(database.connection.db, { apps: { sso: { enabled: true } } })
    }
    expect((await startSignIn({ email: `grace@${domain}` })).status).toBe(200)
  })

  it('with SSO required, other sign-ins of the domain are refused, except the owner’s', async () => {
    const henry = await app.signUp('Henry', { email: `henry@${domain}` })
    expect(henry.cookie).not.toBe('')
    expect((await app.call('/get-session', { cookie: henry.cookie })).body).not.toBeNull()
    const switched = await sso<{ requireSso: boolean }>('mutation', 'setRequired', { required: true })
    expect(switched.data?.requireSso).toBe(true)
    // His password session ends; the owner's stays.
    expect((await app.call('/get-session', { cookie: henry.cookie })).body).toBeNull()
    expect((await app.call('/get-session', { cookie: owner.cookie })).body).not.toBeNull()
    expect(await activity()).toContain('sso_required')

    const henrySignIn = await app.call('/sign-in/email', { body: { email: henry.email, password } })
    expect(henrySignIn.status).toBe(403)
    expect(henrySignIn.code).toBe('SSO_REQUIRED')
    const magicLink = await app.call('/sign-in/magic-link', {
      body: { email: henry.email, callbackURL: '/en/console' },
    })
    expect(magicLink.code).toBe('SSO_REQUIRED')
    const newcomer = await app.call('/sign-up/email', {
      body: { name: 'Kim', email: `kim@${domain}`, password },
    })
    expect(newcomer.code).toBe('SSO_REQUIRED')
    // Other domains are untouched, and the owner keeps her password so a broken IdP never locks everyone out.
    expect((await app.call('/sign-in/email', { body: { email: owner.email, password } })).status).toBe(200)
    // Through SSO, Henry gets in once his own address is confirmed (an unconfirmed account might not be his).
    const unconfirmed = await samlSignIn(henry.email)
    expect(unconfirmed.location).toBe('/en/console?error=account_not_linked')
    expect(sessionCookieOf(unconfirmed.answer)).toBe('')
    await app.confirmEmail(henry)
    const { answer } = await samlSignIn(henry.email)
    expect(sessionCookieOf(answer)).not.toBe('')
    expect(await roleIn(henry.id)).toBe('member')

    await sso('mutation', 'setRequired', { required: false })
    expect((await app.call('/sign-in/email', { body: { email: henry.email, password } })).status).toBe(200)
  })

  it('with SSO required, members’ API keys are refused on tRPC and MCP, whenever they were made; the owner’s work', async () => {
    const lena = await app.signUp('Lena', { email: `lena@${domain}` })
    const keyOf = async (person: Person) =>
      (await app.call<{ key: string }>('/api-key/create', { body: { name: 'Agent' }, cookie: person.cookie })).body.key
    const lenaKey = await keyOf(lena)
    const ownerKey = await keyOf(owner)
    const listMembers = (key: string, acceptLanguage = 'en') =>
      handleTrpcRequest(
        new Request(`${testOrigin}/api/trpc/organizations.members?input=${encodeURIComponent('{"json":{}}')}`, {
          headers: { 'x-api-key': key, 'accept-language': acceptLanguage },
        }),
        database.connection.db,
      )
    // A change any key's owner may make: deleting their own expired keys.
    const deleteExpiredKeys = (key: string) =>
      handleTrpcRequest(
        new Request(`${testOrigin}/api/trpc/apiKeys.deleteExpired`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({}),
        }),
        database.connection.db,
      )
    const mcpListTools = (key: string, acceptLanguage = 'en') =>
      answerMcpRequest(
        new Request(`${testOrigin}/api/mcp`, {
          method: 'POST',
          headers: {
            'x-api-key': key,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'accept-language': acceptLanguage,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            // Any call: the key is checked before any tool is looked at.
            method: 'tools/list',
          }),
        }),
        { db: database.connection.db, clientIp: '198.51.100.9', toolSets: [] },
      )
    expect((await listMembers(lenaKey)).status, 'before SSO is required her key works').toBe(200)
    expect((await deleteExpiredKeys(lenaKey)).status, 'for changes too').toBe(200)
    expect((await mcpListTools(lenaKey)).status).toBe(200)

    await sso('mutation', 'setRequired', { required: true })
    try {
      const listed = await listMembers(lenaKey)
      expect(listed.status, 'a key made before SSO was required').toBe(401)
      expect(
        ((await listed.json()) as { error: { json: { data: { appCode: string } } } }).error.json.data.appCode,
      ).toBe('API_KEY_SSO_REQUIRED')
      expect((await deleteExpiredKeys(lenaKey)).status).toBe(401)
      const mcp = await mcpListTools(lenaKey, 'zh-CN')
      expect(mcp.status).toBe(403)
      const refusal = (await mcp.json()) as { error: { message: string } }
      expect(refusal.error.message, 'translated for the client').toContain('单点登录')
      // A key made through an SSO session is refused the same way: the identity provider stays in charge.
      await app.confirmEmail(lena)
      const viaSso = await samlSignIn(lena.email)
      const ssoCookie = sessionCookieOf(viaSso.answer)
      expect(ssoCookie).not.toBe('')
      const laterKey = (
        await app.call<{ key: string }>('/api-key/create', { body: { name: 'Later agent' }, cookie: ssoCookie })
      ).body.key
      expect((await listMembers(laterKey)).status).toBe(401)
      // The owner is exempt, as for signing in: a broken identity provider must never lock everyone out.
      expect((await listMembers(ownerKey)).status).toBe(200)
      expect((await mcpListTools(ownerKey)).status).toBe(200)
    } finally {
      await sso('mutation', 'setRequired', { required: false })
    }
    expect((await listMembers(lenaKey)).status, 'working again once SSO is no longer required').toBe(200)
  })

  it('reads no SSO connection for an API key while no domain requires SSO, and a change counts at once', async () => {
    const mona = await app.signUp('Mona', { email: `mona@${domain}` })
    const monaKey = (
      await app.call<{ key: string }>('/api-key/create', { body: { name: 'Agent' }, cookie: mona.cookie })
    ).body.key
    const db = database.connection.db
    // The database as the API sees it, noting each table a query reads from.
    const tablesRead: string[] = []
    const watched = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'select') return Reflect.get(target, property, receiver)
        return (...fields: Parameters<typeof db.select>) => {
          const query = target.select(...fields)
          const from = query.from.bind(query)
          Object.assign(query, {
            from: (table: Table) => {
              tablesRead.push(getTableName(table))
              return from(table)
            },
          })
          return query
        }
      },
    })
    const listMembers = (on: typeof db) =>
      handleTrpcRequest(
        new Request(`${testOrigin}/api/trpc/organizations.members?input=${encodeURIComponent('{"json":{}}')}`, {
          headers: { 'x-api-key': monaKey },
        }),
        on,
      )
    // The first call reads what is kept between calls (site settings, the domains that require SSO).
    expect((await listMembers(watched)).status).toBe(200)
    tablesRead.length = 0
    for (let call = 0; call < 3; call++) expect((await listMembers(watched)).status).toBe(200)
    expect(tablesRead, 'the key was used').toContain(getTableName(users))
    expect(tablesRead, 'no SSO connection read for a key while none requires SSO').not.toContain(
      getTableName(ssoProviders),
    )

    expect((await listMembers(db)).status, 'the domains that require SSO are known (none)').toBe(200)
    await sso('mutation', 'setRequired', { required: true })
    try {
      expect((await listMembers(db)).status, 'refused at once, not when a cached answer expires').toBe(401)
    } finally {
      await sso('mutation', 'setRequired', { required: false })
    }
    expect((await listMembers(db)).status, 'and working again at once').toBe(200)
  })

  it('refuses an address from the identity provider that is not one, and creates nobody', async () => {
    for (const email of [`a@b@${domain}`, `two words@${domain}`, `@${domain}`]) {
      const { answer, location } = await samlSignIn(email, { start: { organizationSlug: 'acme' } })
      expect(new URL(location, testOrigin).searchParams.get('error'), email).toBe('SSO_EMAIL_INVALID')
      expect(sessionCookieOf(answer)).toBe('')
      expect(await userByEmail(email), `no account for ${email}`).toBeUndefined()
    }
  })

  // Members are limited where an app sells plans (billing); without one, no organization is full.
  // One test either way: a skipped test fails `npm test`.
  const sellsPlans = serverApps.some((app) => app.organizationPlan)
  it(
    sellsPlans
      ? 'a first sign-in refused for the plan’s member limit leaves no account behind'
      : 'a first sign-in is never refused for a member limit when no app sells plans',
    async () => {
      const db = database.connection.db
      const { limit } = await memberLimit(db, organizationId)
      if (!sellsPlans) {
        expect(limit).toBe(Number.POSITIVE_INFINITY)
        const { location } = await samlSignIn(`one.more@${domain}`)
        expect(new URL(location, testOrigin).searchParams.get('error')).toBeNull()
        expect(await userByEmail(`one.more@${domain}`), 'the account is there').toBeDefined()
        return
      }
      const taken = (await db.select().from(members).where(eq(members.organizationId, organizationId))).length
      // Fill the organization with people from elsewhere, so the next colleague is one too many.
      const fillers: string[] = []
      for (let n = taken; n < limit; n++) {
        const filler = await app.signUp(`Filler ${n}`, { email: `filler-${n}@elsewhere.example` })
        await db.insert(members).values({
          id: `filler-member-${n}`,
          organizationId,
          userId: filler.id,
          role: 'member',
          createdAt: new Date(),
        })
        fillers.push(`filler-member-${n}`)
      }
      try {
        const email = `one.too.many@${domain}`
        const { answer, location } = await samlSignIn(email)
        expect(new URL(location, testOrigin).searchParams.get('error')).toBe('PLAN_LIMIT_MEMBERS')
        expect(sessionCookieOf(answer)).toBe('')
        expect(await userByEmail(email), 'no user row').toBeUndefined()
      } finally {
        for (const id of fillers) await db.delete(members).where(eq(members.id, id))
      }
    },
  )

  it('a domain another organization verified cannot be taken, and members without the permission see nothing', async () => {
    const rival = await app.signUp('Rita', { email: 'rita@rival.example' })
    const rivalOrganization = await app.createOrganization(rival, 'Rival', 'rival')
    await app.call('/organization/set-active', { body: { organizationId: rivalOrganization }, cookie: rival.cookie })
    const taken = await sso(
      'mutation',
      'saveSaml',
      { domain, source: 'url', metadataUrl: idp.metadataUrl },
      rival.cookie,
    )
    expect(taken.error?.appCode).toBe('SSO_DOMAIN_TAKEN')

    const member = await app.signUp('Mona', { email: 'mona@example.com' })
    await app.join(organizationId, owner, member)
    await app.call('/organization/set-active', { body: { organizationId }, cookie: member.cookie })
    const hidden = await sso('query', 'get', undefined, member.cookie)
    expect(hidden.error?.appCode).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
    // Owner-level: an admin, who may change everything else, may not change who signs in as the domain's people.
    const admin = await app.signUp('Adam', { email: 'adam@example.com' })
    await app.join(organizationId, owner, admin, 'admin')
    await app.call('/organization/set-active', { body: { organizationId }, cookie: admin.cookie })
    const refused = await sso(
      'mutation',
      'saveSaml',
      { domain, source: 'url', metadataUrl: idp.metadataUrl },
      admin.cookie,
    )
    expect(refused.error?.appCode).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
  })

  it('saves OpenID Connect from the issuer’s discovery, never returns the secret, and sends sign-in to the provider', async () => {
    let oidc: TestOidcProvider | undefined
    try {
      oidc = await startTestOidcProvider({
        appUrl: testOrigin,
        redirectUris: [`${testOrigin}/api/auth/sso/callback/${providerId}`],
        tokenEndpointAuthMethod: 'client_secret_basic',
      })
      const wrongIssuer = await sso('mutation', 'saveOidc', {
        domain,
        issuer: `${idp.url}/not-an-issuer`,
        clientId: oidc.config.clientId,
        clientSecret: oidc.config.clientSecret,
      })
      expect(wrongIssuer.error?.fieldErrors?.issuer).toEqual(['validation_sso_discovery_failed'])
      const noSecret = await sso('mutation', 'saveOidc', {
        domain,
        issuer: oidc.issuer,
        clientId: oidc.config.clientId,
      })
      expect(noSecret.error?.fieldErrors?.clientSecret).toEqual(['validation_required'])

      const saved = await sso('mutation', 'saveOidc', {
        domain,
        issuer: oidc.issuer,
        clientId: oidc.config.clientId,
        clientSecret: oidc.config.clientSecret,
      })
      expect(saved.error).toBeUndefined()
      const view = await sso('query', 'get')
      expect(view.data?.connection).toMatchObject({ protocol: 'oidc', issuer: oidc.issuer, domainVerified: true })
      expect(JSON.stringify(view.data)).not.toContain(oidc.config.clientSecret)
      // Saving again without a secret keeps the stored one.
      expect(
        (await sso('mutation', 'saveOidc', { domain, issuer: oidc.issuer, clientId: oidc.config.clientId })).error,
      ).toBeUndefined()
      const [row] = await database.connection.db
        .select({ oidc: ssoProviders.oidcConfig })
        .from(ssoProviders)
        .where(eq(ssoProviders.organizationId, organizationId))
      expect(JSON.parse(row?.oidc ?? '{}').clientSecret).toBe(oidc.config.clientSecret)

      const started = await startSignIn({ email: `grace@${domain}` })
      expect(started.status).toBe(200)
      const authorization = new URL(started.body.url)
      expect(authorization.origin).toBe(oidc.issuer)
      expect(authorization.searchParams.get('redirect_uri')).toBe(`${testOrigin}/api/auth/sso/callback/${providerId}`)
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    } finally {
      await oidc?.close()
    }
  })

  it('refuses identity providers on private addresses unless SSO_ALLOW_PRIVATE', async () => {
    const env = getEnv() as { SSO_ALLOW_PRIVATE: boolean }
    env.SSO_ALLOW_PRIVATE = false
    try {
      const refused = await sso('mutation', 'saveSaml', { domain, source: 'url', metadataUrl: idp.metadataUrl })
      expect(refused.error?.fieldErrors?.metadataUrl).toEqual(['validation_sso_url_private'])
    } finally {
      env.SSO_ALLOW_PRIVATE = true
    }
  })

  it('removing the connection stops SSO sign-in and keeps the accounts', async () => {
    const removed = await sso('mutation', 'remove')
    expect(removed.error).toBeUndefined()
    expect((await sso('query', 'get')).data?.connection).toBeNull()
    expect((await startSignIn({ organizationSlug: 'acme' })).status).toBe(404)
    expect(await userByEmail(`grace@${domain}`)).toBeDefined()
    expect(await activity()).toContain('sso_removed')
  })
})
