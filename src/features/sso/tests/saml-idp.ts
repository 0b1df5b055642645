// A real SAML 2.0 identity provider for tests of enterprise SSO (@better-auth/sso, whose service provider is samlify).
// Each instance has its own self-signed signing certificate and serves its metadata and an SSO endpoint on
// 127.0.0.1: GET /sso reads the app's AuthnRequest and answers a page that POSTs a signed SAMLResponse to the app's
// ACS URL, as a real IdP does after sign-in. respond() builds responses directly, good or with a chosen fault.
//
// The IdP only builds XML and reads AuthnRequests with samlify's extractor, neither of which runs samlify's schema
// validator, so this module sets none: the SSO plugin sets its own (stricter) one when it is imported, and a global
// permissive one here would silently replace it in a process that runs the app too.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as samlify from 'samlify'
import { generate } from 'selfsigned'

export interface SamlUser {
  email: string
  firstName?: string
  lastName?: string
}

export type SamlFault = 'bad-signature' | 'expired' | 'wrong-audience' | 'unsigned' | 'other-idp-key'

export interface SamlIdp {
  /** http://127.0.0.1:PORT */
  url: string
  /** `${url}/metadata` */
  entityId: string
  /** `${url}/sso` (HTTP-Redirect binding; HTTP-POST is answered there too). */
  ssoUrl: string
  /** `${url}/metadata` */
  metadataUrl: string
  /** The IdP metadata: entityID, signing certificate, SingleSignOnService for Redirect and POST. */
  metadataXml: string
  /** Who "signs in" at the IdP for the browser flow (GET /sso). */
  setUser(user: SamlUser): void
  /** Reads a Redirect-binding AuthnRequest from the URL the app sent the browser to (SAMLRequest, RelayState). */
  readRequest(redirectUrl: string): { id: string; acsUrl: string; spEntityId: string; relayState?: string }
  /** A signed SAMLResponse (base64) for an AuthnRequest, with faults on demand. */
  respond(options: {
    acsUrl: string
    audience: string
    inResponseTo?: string
    user: SamlUser
    fault?: SamlFault
  }): Promise<string>
  close(): Promise<void>
}

export const DEFAULT_SAML_USER: SamlUser = { email: 'first.last@example.com', firstName: 'First', lastName: 'Last' }

/** The address a 'bad-signature' response claims instead of the user's, after the assertion was signed. */
export const TAMPERED_EMAIL = 'intruder@attacker.example'

/** The audience a 'wrong-audience' response is issued for. */
export const WRONG_AUDIENCE = 'https://another-service-provider.example/saml/metadata'

const { binding, format } = samlify.Constants.namespace
const MINUTE = 60_000
/** How long a good assertion is valid, and how far back NotBefore is set (a little slack for a slow clock). */
const VALIDITY = 5 * MINUTE
const NOT_BEFORE_SLACK = MINUTE

// samlify's {Tag} placeholders, filled by SamlLib.replaceTagsByValue (which XML-escapes each value and drops an
// attribute whose value is undefined, such as InResponseTo in an IdP-initiated response). {Attributes} is filled per
// response, so a user without a first or last name gets no empty attribute.
const RESPONSE_TEMPLATE = [
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"',
  ' ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}">',
  '<saml:Issuer>{Issuer}</saml:Issuer>',
  '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>',
  '<saml:Assertion xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
  ' ID="{AssertionID}" Version="2.0" IssueInstant="{IssueInstant}">',
  '<saml:Issuer>{Issuer}</saml:Issuer>',
  '<saml:Subject>',
  '<saml:NameID Format="{NameIDFormat}">{NameID}</saml:NameID>',
  '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">',
  '<saml:SubjectConfirmationData NotOnOrAfter="{SubjectConfirmationDataNotOnOrAfter}" Recipient="{SubjectRecipient}"',
  ' InResponseTo="{InResponseTo}"/>',
  '</saml:SubjectConfirmation>',
  '</saml:Subject>',
  '<saml:Conditions NotBefore="{ConditionsNotBefore}" NotOnOrAfter="{ConditionsNotOnOrAfter}">',
  '<saml:AudienceRestriction><saml:Audience>{Audience}</saml:Audience></saml:AudienceRestriction>',
  '</saml:Conditions>',
  '<saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{SessionIndex}">',
  '<saml:AuthnContext><saml:AuthnContextClassRef>{AuthnContextClassRef}</saml:AuthnContextClassRef></saml:AuthnContext>',
  '</saml:AuthnStatement>',
  '<saml:AttributeStatement>{Attributes}</saml:AttributeStatement>',
  '</saml:Assertion>',
  '</samlp:Response>',
].join('')

const BASIC_NAME_FORMAT = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic'

/** The attributes the SSO plugin maps by default: email, givenName, surname. */
function attributesFor(user: SamlUser) {
  const present = [
    { name: 'email', value: user.email },
    { name: 'givenName', value: user.firstName },
    { name: 'surname', value: user.lastName },
  ].filter((attribute): attribute is { name: string; value: string } => attribute.value !== undefined)
  const xml = samlify.SamlLib.attributeStatementBuilder(
    present.map(({ name }) => ({ name, nameFormat: BASIC_NAME_FORMAT, valueTag: name, valueXsiType: 'xs:string' })),
    samlify.SamlLib.defaultAttributeTemplate,
    { context: '{Attributes}' },
  )
  // attributeStatementBuilder leaves one {attr<Name>} placeholder per value (attr + the capitalised name).
  const values = Object.fromEntries(
    present.map(({ name, value }) => [`attr${name[0]?.toUpperCase()}${name.slice(1)}`, value]),
  )
  return { xml, values }
}

const id = () => `_${randomUUID()}`

interface SigningIdentity {
  privateKey: string
  cert: string
}

async function newSigningIdentity(commonName: string): Promise<SigningIdentity> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keySize: 2048, algorithm: 'sha256' })
  return { privateKey: pems.private, cert: pems.cert }
}

function identityProvider(entityId: string, ssoUrl: string, identity: SigningIdentity) {
  return samlify.IdentityProvider({
    entityID: entityId,
    privateKey: identity.privateKey,
    signingCert: identity.cert,
    nameIDFormat: [format.emailAddress],
    wantAuthnRequestsSigned: false,
    singleSignOnService: [
      { Binding: binding.redirect, Location: ssoUrl },
      { Binding: binding.post, Location: ssoUrl },
    ],
    loginResponseTemplate: { context: RESPONSE_TEMPLATE, attributes: [] },
  })
}

const escapeHtml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')

/** The page a browser gets back from GET /sso: it posts the response to the app's ACS URL on its own. */
function autoPostPage(acsUrl: string, samlResponse: string, relayState?: string) {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Signing you in…</title></head><body>',
    `<form method="post" action="${escapeHtml(acsUrl)}">`,
    `<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">`,
    relayState === undefined ? '' : `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">`,
    '<button type="submit">Continue</button>',
    '</form>',
    '<script>document.forms[0].submit()</script>',
    '</body></html>',
  ].join('\n')
}

async function readBody(request: IncomingMessage) {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Starts the IdP on 127.0.0.1 (a free port unless one is given), with a fresh key and certificate. */
export async function startSamlIdp(options: { port?: number; host?: string } = {}): Promise<SamlIdp> {
  const host = options.host ?? '127.0.0.1'
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => {
    response.writeHead(503).end()
  }
  const server: Server = createServer((request, response) => handler(request, response))
  const [identity] = await Promise.all([
    newSigningIdentity('Hatch test SAML IdP'),
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject)
        resolve()
      })
    }),
  ])
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`
  const entityId = `${url}/metadata`
  const ssoUrl = `${url}/sso`
  const idp = identityProvider(entityId, ssoUrl, identity)
  const metadataXml = idp.getMetadata()
  // Another IdP under the same entity ID but with a key of its own, made on first use ('other-idp-key').
  let impostor: Promise<ReturnType<typeof identityProvider>> | undefined
  let currentUser: SamlUser = DEFAULT_SAML_USER

  /** The request carried by a SAMLRequest value: deflated for Redirect, plain base64 for POST. */
  function parseRequest(samlRequest: string, deflated: boolean, relayState: string | null) {
    const xml = deflated
      ? samlify.Utility.inflateString(samlRequest)
      : String(samlify.Utility.base64Decode(samlRequest.replace(/\s+/g, '')))
    const { request, issuer } = samlify.Extractor.extract(xml, samlify.Extractor.loginRequestFields) as {
      request?: { id?: string; assertionConsumerServiceUrl?: string }
      issuer?: string
    }
    if (!request?.id) throw new Error(`The SAMLRequest is not an AuthnRequest with an ID: ${xml.slice(0, 300)}`)
    if (!request.assertionConsumerServiceUrl) throw new Error(`The AuthnRequest ${request.id} names no ACS URL`)
    if (!issuer) throw new Error(`The AuthnRequest ${request.id} has no Issuer (the SP entity ID)`)
    return {
      id: request.id,
      acsUrl: request.assertionConsumerServiceUrl,
      spEntityId: issuer,
      ...(relayState === null ? {} : { relayState }),
    }
  }

  function readRequest(redirectUrl: string) {
    const params = new URL(redirectUrl).searchParams
    const samlRequest = params.get('SAMLRequest')
    if (!samlRequest) throw new Error(`The URL carries no SAMLRequest: ${redirectUrl}`)
    return parseRequest(samlRequest, true, params.get('RelayState'))
  }

  async function respond({
    acsUrl,
    audience,
    inResponseTo,
    user,
    fault,
  }: Parameters<SamlIdp['respond']>[0]): Promise<string> {
    const now = Date.now()
    // 'expired': the assertion ran out an hour ago, far beyond the plugin's default 5-minute clock skew.
    const issuedAt = fault === 'expired' ? now - 65 * MINUTE : now
    const notOnOrAfter = fault === 'expired' ? now - 60 * MINUTE : now + VALIDITY
    const attributes = attributesFor(user)
    const values = {
      ID: id(),
      AssertionID: id(),
      SessionIndex: id(),
      IssueInstant: new Date(issuedAt).toISOString(),
      Destination: acsUrl,
      Issuer: entityId,
      InResponseTo: inResponseTo,
      NameIDFormat: format.emailAddress,
      NameID: user.email,
      SubjectRecipient: acsUrl,
      SubjectConfirmationDataNotOnOrAfter: new Date(notOnOrAfter).toISOString(),
      ConditionsNotBefore: new Date(issuedAt - NOT_BEFORE_SLACK).toISOString(),
      ConditionsNotOnOrAfter: new Date(notOnOrAfter).toISOString(),
      Audience: fault === 'wrong-audience' ? WRONG_AUDIENCE : audience,
      AuthnContextClassRef: samlify.Constants.namespace.authnContextClassRef.passwordProtectedTransport,
      ...attributes.values,
    }
    const fill = (template: string) => ({
      id: values.ID,
      context: samlify.SamlLib.replaceTagsByValue(
        template.replace('{Attributes}', () => attributes.xml),
        values,
      ),
    })

    if (fault === 'unsigned') return samlify.Utility.base64Encode(fill(RESPONSE_TEMPLATE).context)

    // The SP as the app's ACS describes it: it wants signed assertions, so samlify signs the assertion (not the
    // Response), which is what the plugin verifies.
    const sp = samlify.ServiceProvider({
      entityID: audience,
      wantAssertionsSigned: true,
      assertionConsumerService: [{ Binding: binding.post, Location: acsUrl }],
    })
    let signer = idp
    if (fault === 'other-idp-key') {
      impostor ??= newSigningIdentity('Impostor SAML IdP').then((other) => identityProvider(entityId, ssoUrl, other))
      signer = await impostor
    }
    const { context } = await signer.createLoginResponse(
      sp,
      { extract: {} },
      'post',
      { email: user.email },
      {
        customTagReplacement: fill,
      },
    )
    if (fault !== 'bad-signature') return context

    // Swap the signed address (the NameID and the email attribute, as serialised) for another one.
    const signed = String(samlify.Utility.base64Decode(context))
    const signedEmail = /<saml:NameID[^>]*>([^<]+)<\/saml:NameID>/.exec(signed)?.[1]
    if (!signedEmail) throw new Error('Could not find the NameID in the signed response to tamper with')
    return samlify.Utility.base64Encode(signed.replaceAll(`>${signedEmail}<`, `>${TAMPERED_EMAIL}<`))
  }

  async function answerSso(request: IncomingMessage, response: ServerResponse, requestUrl: URL) {
    let params = requestUrl.searchParams
    let deflated = true
    if (request.method === 'POST') {
      params = new URLSearchParams(await readBody(request))
      deflated = false
    }
    const samlRequest = params.get('SAMLRequest')
    if (!samlRequest) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('SAMLRequest is missing')
      return
    }
    let authnRequest: ReturnType<typeof parseRequest>
    try {
      authnRequest = parseRequest(samlRequest, deflated, params.get('RelayState'))
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(String(error))
      return
    }
    const samlResponse = await respond({
      acsUrl: authnRequest.acsUrl,
      audience: authnRequest.spEntityId,
      inResponseTo: authnRequest.id,
      user: currentUser,
    })
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(autoPostPage(authnRequest.acsUrl, samlResponse, authnRequest.relayState))
  }

  handler = (request, response) => {
    const requestUrl = new URL(request.url ?? '/', url)
    if (request.method === 'GET' && requestUrl.pathname === '/metadata') {
      response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(metadataXml)
      return
    }
    if ((request.method === 'GET' || request.method === 'POST') && requestUrl.pathname === '/sso') {
      answerSso(request, response, requestUrl).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
        response.end(String(error))
      })
      return
    }
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found')
  }

  return {
    url,
    entityId,
    ssoUrl,
    metadataUrl: entityId,
    metadataXml,
    setUser(user) {
      currentUser = user
    },
    readRequest,
    respond,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
