import * as samlify from 'samlify'
import { getEnv } from '#/server/env'
import { fetchPublicText } from '#/server/outbound/fetch-public'
import { AppError } from '#/server/trpc/init'
import { ssoLimits } from '../sso-rules'

/** A refusal about one field of the connection form, shown beside it (a message key). */
const fieldRefusal = (field: string, message: string) =>
  new AppError({ code: 'BAD_REQUEST', appCode: 'BAD_REQUEST', message, field })

/** The OpenID Connect settings Better Auth's SSO plugin reads (its OIDCConfig), all discovered when saved. */
export interface StoredOidcConfig {
  issuer: string
  pkce: true
  clientId: string
  clientSecret: string
  discoveryEndpoint: string
  authorizationEndpoint: string
  tokenEndpoint: string
  jwksEndpoint: string
  userInfoEndpoint?: string
  tokenEndpointAuthentication: 'client_secret_basic' | 'client_secret_post'
  scopes: string[]
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '')

const isHttpUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false
  try {
    const { protocol } = new URL(value)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/**
 * Reads the issuer's discovery document (as a browser-typed URL: public addresses only, no redirects) and keeps
 * what sign-in needs, so a sign-in never depends on discovery answering. The document must name the same issuer.
 */
export async function discoverOidcProvider(input: {
  issuer: string
  clientId: string
  clientSecret: string
}): Promise<StoredOidcConfig> {
  const issuer = withoutTrailingSlash(input.issuer)
  const discoveryEndpoint = `${issuer}/.well-known/openid-configuration`
  const fetched = await fetchPublicText(discoveryEndpoint, {
    allowPrivate: getEnv().SSO_ALLOW_PRIVATE,
    maxBytes: 64 * 1024,
    accept: 'application/json',
  })
  if (!fetched.ok) {
    throw fieldRefusal(
      'issuer',
      fetched.reason === 'private-address' ? 'validation_sso_url_private' : 'validation_sso_discovery_failed',
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(fetched.text)
  } catch {
    throw fieldRefusal('issuer', 'validation_sso_discovery_failed')
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw fieldRefusal('issuer', 'validation_sso_discovery_failed')
  }
  const document = parsed as Record<string, unknown>
  if (typeof document.issuer !== 'string' || withoutTrailingSlash(document.issuer) !== issuer) {
    throw fieldRefusal('issuer', 'validation_sso_issuer_mismatch')
  }
  const { authorization_endpoint, token_endpoint, jwks_uri, userinfo_endpoint } = document
  if (!isHttpUrl(authorization_endpoint) || !isHttpUrl(token_endpoint) || !isHttpUrl(jwks_uri)) {
    throw fieldRefusal('issuer', 'validation_sso_discovery_failed')
  }
  const methods = Array.isArray(document.token_endpoint_auth_methods_supported)
    ? document.token_endpoint_auth_methods_supported
    : ['client_secret_basic']
  return {
    issuer: document.issuer,
    pkce: true,
    clientId: input.clientId,
    clientSecret: input.clientSecret,
    discoveryEndpoint,
    authorizationEndpoint: authorization_endpoint,
    tokenEndpoint: token_endpoint,
    jwksEndpoint: jwks_uri,
    ...(isHttpUrl(userinfo_endpoint) ? { userInfoEndpoint: userinfo_endpoint } : {}),
    tokenEndpointAuthentication:
      methods.includes('client_secret_basic') || !methods.includes('client_secret_post')
        ? 'client_secret_basic'
        : 'client_secret_post',
    scopes: ['openid', 'email', 'profile'],
  }
}

/** What an identity provider's metadata says, checked by samlify the way the plugin will read it at sign-in. */
export interface SamlIdentityProvider {
  entityId: string
  ssoUrl: string
  metadataXml: string
}

// samlify names bindings by their short name.
const redirectBinding = 'redirect'

/** The metadata pasted or read from its URL, refused with a clear message unless sign-in could use it. */
export async function readSamlMetadata(input: {
  source: 'xml' | 'url'
  metadataXml: string
  metadataUrl: string
}): Promise<SamlIdentityProvider> {
  const field = input.source === 'url' ? 'metadataUrl' : 'metadataXml'
  let xml = input.metadataXml
  if (input.source === 'url') {
    const fetched = await fetchPublicText(input.metadataUrl, {
      allowPrivate: getEnv().SSO_ALLOW_PRIVATE,
      maxBytes: ssoLimits.metadataMax,
      accept: 'application/samlmetadata+xml, application/xml, text/xml',
    })
    if (!fetched.ok) {
      throw fieldRefusal(
        field,
        fetched.reason === 'private-address' ? 'validation_sso_url_private' : 'validation_sso_metadata_unreachable',
      )
    }
    xml = fetched.text.trim()
  }
  // A DOCTYPE has no place in metadata and is how XML entity attacks start.
  if (!xml.startsWith('<') || /<!DOCTYPE|<!ENTITY/i.test(xml))
    throw fieldRefusal(field, 'validation_sso_metadata_invalid')
  try {
    const idp = samlify.IdentityProvider({ metadata: xml })
    const entityId = idp.entityMeta.getEntityID()
    const services = idp.entityMeta.getSingleSignOnService(redirectBinding)
    const ssoUrl = typeof services === 'string' ? services : undefined
    const certificate = idp.entityMeta.getX509Certificate('signing')
    if (!entityId || !ssoUrl || !isHttpUrl(ssoUrl) || !certificate) throw new Error('incomplete metadata')
    return { entityId, ssoUrl, metadataXml: xml }
  } catch {
    throw fieldRefusal(field, 'validation_sso_metadata_invalid')
  }
}
