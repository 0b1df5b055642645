/** Single sign-on rules both the console and the server use: names, limits and the URLs an identity provider is given. */

export const ssoLimits = {
  domainMax: 253,
  issuerMax: 2048,
  clientIdMax: 512,
  clientSecretMax: 2048,
  /** Identity provider metadata is a few KB; 256 KB leaves room for many certificates and endpoints. */
  metadataMax: 256 * 1024,
  identifierMax: 320,
} as const

/** The plugin's provider id for an organization's one connection: the last segment of its ACS and callback URLs. */
export function ssoProviderIdOf(organizationId: string): string {
  return `org-${organizationId}`
}

/** A lower-case DNS name of two or more labels, no trailing dot (`example.com`, `corp.example.co.uk`). */
const domainPattern = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/

export function normalizeDomain(input: string): string {
  return input.trim().toLowerCase().replace(/\.$/, '')
}

export function isEmailDomain(input: string): boolean {
  return domainPattern.test(input)
}

/** The domain part of an address, lower-case; empty when there is none. */
export function emailDomainOf(email: string): string {
  const at = email.lastIndexOf('@')
  return at < 0 ? '' : normalizeDomain(email.slice(at + 1))
}

/** Where the TXT record that proves the domain is published, and what it says. */
export function domainRecordName(domain: string): string {
  return `_hatch-sso.${domain}`
}

export function domainRecordValue(token: string): string {
  return `hatch-sso-verification=${token}`
}

/** What the identity provider is told about this app for one connection. */
export function serviceProviderUrls(appUrl: string, providerId: string) {
  const auth = `${appUrl}/api/auth`
  const id = encodeURIComponent(providerId)
  return {
    /** SAML: the SP entity ID and audience, which is also where the SP metadata is served. */
    entityId: `${auth}/sso/saml2/sp/metadata?providerId=${id}`,
    acsUrl: `${auth}/sso/saml2/sp/acs/${id}`,
    /** OpenID Connect: the redirect URI to register with the client. */
    redirectUri: `${auth}/sso/callback/${id}`,
  }
}
