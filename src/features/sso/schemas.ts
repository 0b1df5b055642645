import { storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { isEmailDomain, normalizeDomain, ssoLimits } from './sso-rules'

const domainField = storableString('validation_sso_domain_invalid')
  .trim()
  .max(ssoLimits.domainMax, 'validation_sso_domain_invalid')
  .transform(normalizeDomain)
  .refine(isEmailDomain, 'validation_sso_domain_invalid')

const httpUrl = (max: number, message: string) =>
  storableString(message)
    .trim()
    .min(1, 'validation_required')
    .max(max, message)
    .refine((value) => {
      try {
        const url = new URL(value)
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
      } catch {
        return false
      }
    }, message)

/** An OpenID Connect connection: the issuer is discovered by the server; an empty secret keeps the stored one. */
export const oidcConnectionSchema = z.object({
  domain: domainField,
  issuer: httpUrl(ssoLimits.issuerMax, 'validation_sso_issuer_invalid'),
  clientId: storableString()
    .trim()
    .min(1, 'validation_required')
    .max(ssoLimits.clientIdMax, 'validation_sso_value_too_long'),
  clientSecret: storableString().trim().max(ssoLimits.clientSecretMax, 'validation_sso_value_too_long').default(''),
})
export type OidcConnectionValues = z.input<typeof oidcConnectionSchema>

/** A SAML connection: the identity provider's metadata, pasted or read from its URL by the server. */
export const samlConnectionSchema = z
  .object({
    domain: domainField,
    source: z.enum(['xml', 'url'], 'validation_required'),
    metadataXml: storableString().trim().max(ssoLimits.metadataMax, 'validation_sso_metadata_too_large').default(''),
    metadataUrl: storableString().trim().max(ssoLimits.issuerMax, 'validation_sso_metadata_url_invalid').default(''),
  })
  .superRefine((value, ctx) => {
    if (value.source === 'xml' && !value.metadataXml) {
      ctx.addIssue({ code: 'custom', path: ['metadataXml'], message: 'validation_required' })
    }
    if (value.source === 'url' && !httpUrl(ssoLimits.issuerMax, 'x').safeParse(value.metadataUrl).success) {
      ctx.addIssue({ code: 'custom', path: ['metadataUrl'], message: 'validation_sso_metadata_url_invalid' })
    }
  })
export type SamlConnectionValues = z.input<typeof samlConnectionSchema>

export const ssoRequiredInput = z.object({ required: z.boolean() })

/** "Sign in with SSO": a work email or an organization's URL name. */
export const ssoSignInSchema = z.object({
  identifier: storableString()
    .trim()
    .min(1, 'validation_sso_identifier_required')
    .max(320, 'validation_sso_identifier_required'),
})
