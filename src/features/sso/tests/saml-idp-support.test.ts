// The test-support servers for enterprise SSO work as the SSO tests rely on: the DNS responder answers TXT lookups
// through Node's own resolver, and the SAML IdP's responses are what a samlify service provider set up like
// @better-auth/sso's accepts when they are good and refuses when they are forged.
import { Resolver } from 'node:dns/promises'
// The SSO plugin installs samlify's XML schema validator when it is imported; the service provider below uses the
// same samlify, so it validates as the app does.
import '@better-auth/sso'
import * as samlify from 'samlify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DnsServer, startDnsServer } from '../../../../tests/support/dns-server'
import { type SamlIdp, type SamlUser, startSamlIdp, TAMPERED_EMAIL, WRONG_AUDIENCE } from './saml-idp'

describe('the test DNS server', () => {
  let dns: DnsServer
  let resolver: Resolver

  beforeAll(async () => {
    dns = await startDnsServer({ controlPort: 0 })
    resolver = new Resolver({ timeout: 2000, tries: 1 })
    resolver.setServers([`${dns.host}:${dns.port}`])
  })
  afterAll(() => dns.close())

  it('answers a TXT lookup with the values set for the name, whatever its case or trailing dot', async () => {
    dns.setTxt('_better-auth-token-acme.Example.COM.', ['acme-verification=abc123', 'v=spf1 -all'])
    const records = await resolver.resolveTxt('_better-auth-token-acme.example.com')
    expect(records, 'each value should come back as one TXT record of one string').toEqual([
      ['acme-verification=abc123'],
      ['v=spf1 -all'],
    ])
  })

  it('splits a value longer than 255 bytes into character-strings that join back to the value', async () => {
    const long = `token=${'x'.repeat(600)}`
    dns.setTxt('long.example.com', [long])
    const [record] = await resolver.resolveTxt('long.example.com')
    expect(record?.map((part) => part.length)).toEqual([255, 255, 96])
    expect(record?.join('')).toBe(long)
  })

  it('still answers when the records are too many for one datagram (truncated, then over TCP)', async () => {
    const values = Array.from({ length: 12 }, (_, index) => `record-${index}-${'y'.repeat(200)}`)
    dns.setTxt('many.example.com', values)
    const records = await resolver.resolveTxt('many.example.com')
    expect(records.map((record) => record.join(''))).toEqual(values)
  })

  it('says a name it does not know does not exist, and a known name has no other types of records', async () => {
    await expect(resolver.resolveTxt('unknown.example.com'), 'an unknown name is NXDOMAIN').rejects.toMatchObject({
      code: 'ENOTFOUND',
    })
    dns.setTxt('known.example.com', ['hello'])
    await expect(
      resolver.resolve4('known.example.com'),
      'an A query of a TXT-only name is empty',
    ).rejects.toMatchObject({ code: 'ENODATA' })
  })

  it('takes records from another process over its control port, and forgets them all on clear', async () => {
    const post = (path: string, body?: unknown) =>
      fetch(`${dns.controlUrl}${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) })
    expect((await post('/txt', { name: 'remote.example.com', values: ['set-from-afar'] })).status).toBe(204)
    expect(await resolver.resolveTxt('remote.example.com')).toEqual([['set-from-afar']])

    const refused = await post('/txt', { name: 'remote.example.com', values: 'not-a-list' })
    expect(refused.status, 'values that are not a list of strings should be refused').toBe(400)

    expect((await post('/clear')).status).toBe(204)
    await expect(resolver.resolveTxt('remote.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' })
  })
})

describe('the test SAML identity provider', () => {
  const appBaseUrl = 'http://localhost:3000/api/auth'
  const spEntityId = `${appBaseUrl}/sso/saml2/sp/metadata?providerId=acme`
  const acsUrl = `${appBaseUrl}/sso/saml2/sp/acs/acme`
  const user: SamlUser = { email: 'ada.lovelace@acme.example', firstName: 'Ada', lastName: 'Lovelace' }
  let idp: SamlIdp
  /** The IdP as the app sees it: built from its metadata, as the plugin's createIdP does. */
  let idpAsSeenByApp: ReturnType<typeof samlify.IdentityProvider>
  /** A service provider configured the way the plugin's createSP configures one, wanting signed assertions. */
  let sp: ReturnType<typeof samlify.ServiceProvider>

  beforeAll(async () => {
    idp = await startSamlIdp()
    idpAsSeenByApp = samlify.IdentityProvider({ metadata: idp.metadataXml })
    const spMetadata = samlify
      .SPMetadata({
        entityID: spEntityId,
        assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: acsUrl }],
        wantAssertionsSigned: true,
        authnRequestsSigned: false,
      })
      .getMetadata()
    sp = samlify.ServiceProvider({ metadata: spMetadata, allowCreate: true, relayState: 'relay-state-from-the-app' })
  })
  afterAll(() => idp.close())

  /** What the plugin's ACS endpoint does first with a posted SAMLResponse. */
  const parse = (samlResponse: string) =>
    sp.parseLoginResponse(idpAsSeenByApp, 'post', { body: { SAMLResponse: samlResponse } })

  const decode = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8')
  const assertionId = (xml: string) => /<saml:Assertion\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1]

  it('publishes metadata naming its entity ID, its signing certificate and its SSO endpoint', async () => {
    expect(idp.entityId).toBe(`${idp.url}/metadata`)
    const response = await fetch(idp.metadataUrl)
    expect(response.headers.get('content-type')).toBe('application/samlmetadata+xml')
    expect(await response.text()).toBe(idp.metadataXml)
    expect(idpAsSeenByApp.entityMeta.getEntityID()).toBe(idp.entityId)
    expect(idpAsSeenByApp.entityMeta.getSingleSignOnService('redirect')).toBe(idp.ssoUrl)
    expect(idpAsSeenByApp.entityMeta.getSingleSignOnService('post')).toBe(idp.ssoUrl)
    expect(idpAsSeenByApp.entityMeta.getX509Certificate('signing'), 'the metadata should carry a certificate').toMatch(
      /^MII/,
    )
  })

  it('reads the AuthnRequest from the URL the app sends the browser to', () => {
    const login = sp.createLoginRequest(idpAsSeenByApp, 'redirect')
    expect(login.context.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true)
    expect(idp.readRequest(login.context)).toEqual({
      id: login.id,
      acsUrl,
      spEntityId,
      relayState: 'relay-state-from-the-app',
    })
  })

  it('issues a response the service provider accepts: the user, for this app and request, signed', async () => {
    const samlResponse = await idp.respond({ acsUrl, audience: spEntityId, inResponseTo: '_request-1', user })
    const { extract, samlContent } = await parse(samlResponse)
    expect(extract.nameID, 'the NameID should be the email').toBe(user.email)
    expect(extract.attributes).toEqual({ email: user.email, givenName: 'Ada', surname: 'Lovelace' })
    expect(extract.issuer).toBe(idp.entityId)
    expect(extract.audience).toBe(spEntityId)
    expect(extract.response).toMatchObject({ inResponseTo: '_request-1', destination: acsUrl })
    expect(samlContent).toContain(`Recipient="${acsUrl}"`)
    expect(samlContent).toContain('Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"')

    const conditions = extract.conditions as { notBefore: string; notOnOrAfter: string }
    const now = Date.now()
    expect(Date.parse(conditions.notBefore)).toBeLessThanOrEqual(now)
    expect(Date.parse(conditions.notOnOrAfter)).toBeGreaterThan(now + 60_000)
    expect(Date.parse(conditions.notOnOrAfter)).toBeLessThanOrEqual(now + 10 * 60_000)

    // The plugin insists that the assertion itself (not only the Response) is signed by the IdP's key.
    const [verified, signedNode] = samlify.SamlLib.verifySignature(samlContent, {
      metadata: idpAsSeenByApp.entityMeta,
    })
    expect(verified, 'the assertion signature should verify against the metadata certificate').toBe(true)
    expect(signedNode, 'the signed element should be the assertion').toMatch(/^<saml:Assertion\b/)
    expect(assertionId(signedNode ?? '')).toBe(assertionId(samlContent))
  })

  it('gives every response its own assertion ID (the plugin refuses a replayed one)', async () => {
    const responses = await Promise.all(
      [1, 2, 3].map(() => idp.respond({ acsUrl, audience: spEntityId, inResponseTo: '_request-2', user })),
    )
    const ids = responses.map((response) => assertionId(decode(response)))
    expect(ids.every(Boolean)).toBe(true)
    expect(new Set(ids).size).toBe(3)
  })

  it('leaves InResponseTo out of an IdP-initiated response', async () => {
    const { extract, samlContent } = await parse(await idp.respond({ acsUrl, audience: spEntityId, user }))
    expect(extract.nameID).toBe(user.email)
    expect(samlContent).not.toContain('InResponseTo')
  })

  it('signs the user in through the browser flow: /sso answers a page that posts the response to the ACS', async () => {
    idp.setUser({ email: 'grace.hopper@acme.example', firstName: 'Grace', lastName: 'Hopper' })
    const login = sp.createLoginRequest(idpAsSeenByApp, 'redirect')
    const page = await fetch(login.context)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await page.text()
    expect(html).toContain(`<form method="post" action="${acsUrl}">`)
    expect(html).toContain('<button type="submit">Continue</button>')
    expect(html).toMatch(/<script>document\.forms\[0\]\.submit\(\)<\/script>/)
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]
    expect(field('RelayState')).toBe('relay-state-from-the-app')

    const { extract } = await parse(field('SAMLResponse') ?? '')
    expect(extract.nameID).toBe('grace.hopper@acme.example')
    expect(extract.attributes).toMatchObject({ givenName: 'Grace', surname: 'Hopper' })
    expect(extract.response, 'the response should answer the request the app made').toMatchObject({
      inResponseTo: login.id,
    })
  })

  it.each([
    // The email was changed after signing: the digest no longer matches.
    ['bad-signature', 'FAILED_TO_VERIFY_SIGNATURE'],
    // No signature at all, on the assertion or the Response.
    ['unsigned', 'FAILED_TO_VERIFY_SIGNATURE'],
    // Signed by another key, with that key's certificate in KeyInfo: not the certificate in the metadata.
    ['other-idp-key', 'ERROR_UNMATCH_CERTIFICATE_DECLARATION_IN_METADATA'],
  ] as const)('refuses a %s response', async (fault, reason) => {
    const samlResponse = await idp.respond({ acsUrl, audience: spEntityId, inResponseTo: '_request-3', user, fault })
    const xml = decode(samlResponse)
    if (fault === 'bad-signature') expect(xml).toContain(`>${TAMPERED_EMAIL}<`)
    if (fault === 'unsigned') expect(xml).not.toContain('Signature')
    if (fault === 'other-idp-key') {
      expect(xml).toContain('<ds:Signature')
      expect(xml).not.toContain(idpAsSeenByApp.entityMeta.getX509Certificate('signing') as string)
    }
    await expect(parse(samlResponse), `a ${fault} response must not be accepted`).rejects.toThrow(reason)
  })

  it('issues an expired response that ran out an hour ago, beyond the plugin’s 5-minute clock skew', async () => {
    const samlResponse = await idp.respond({ acsUrl, audience: spEntityId, user, fault: 'expired' })
    const xml = decode(samlResponse)
    const times = samlify.Extractor.extract(xml, [
      { key: 'issued', localPath: ['Response'], attributes: ['IssueInstant'] },
      {
        key: 'conditions',
        localPath: ['Response', 'Assertion', 'Conditions'],
        attributes: ['NotBefore', 'NotOnOrAfter'],
      },
      {
        key: 'confirmation',
        localPath: ['Response', 'Assertion', 'Subject', 'SubjectConfirmation', 'SubjectConfirmationData'],
        attributes: ['NotOnOrAfter'],
      },
    ])
    const conditions = times.conditions as { notBefore: string; notOnOrAfter: string }
    const hourAgo = Date.now() - 60 * 60_000
    expect(Math.abs(Date.parse(conditions.notOnOrAfter) - hourAgo), 'NotOnOrAfter about an hour ago').toBeLessThan(
      60_000,
    )
    expect(Math.abs(Date.parse(times.confirmation as string) - hourAgo)).toBeLessThan(60_000)
    expect(Date.parse(conditions.notBefore)).toBeLessThan(Date.parse(conditions.notOnOrAfter))
    expect(Date.parse(times.issued as string)).toBeLessThan(Date.parse(conditions.notOnOrAfter))
    // samlify checks the Conditions window itself, with no tolerance unless the plugin's clockSkew option is set.
    await expect(parse(samlResponse)).rejects.toThrow('ERR_SUBJECT_UNCONFIRMED')
  })

  it('issues a wrong-audience response, signed and well-formed but for another service provider', async () => {
    // samlify does not check the audience; the plugin compares it with the SP entity ID (or its configured audience).
    const { extract } = await parse(
      await idp.respond({ acsUrl, audience: spEntityId, user, inResponseTo: '_request-4', fault: 'wrong-audience' }),
    )
    expect(extract.nameID).toBe(user.email)
    expect(extract.audience).toBe(WRONG_AUDIENCE)
    expect(extract.audience).not.toBe(spEntityId)
  })
})
