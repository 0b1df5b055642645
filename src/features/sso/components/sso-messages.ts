import { addFeatureMessages } from '#/lib/errors'
import { m } from '#/paraglide/messages'

// The single sign-on page's own field messages and refusals: they ship with this page only.
addFeatureMessages({
  validation_sso_domain_invalid: m.validation_sso_domain_invalid,
  validation_sso_issuer_invalid: m.validation_sso_issuer_invalid,
  validation_sso_value_too_long: m.validation_sso_value_too_long,
  validation_sso_metadata_too_large: m.validation_sso_metadata_too_large,
  validation_sso_metadata_url_invalid: m.validation_sso_metadata_url_invalid,
  validation_sso_metadata_invalid: m.validation_sso_metadata_invalid,
  validation_sso_metadata_unreachable: m.validation_sso_metadata_unreachable,
  validation_sso_url_private: m.validation_sso_url_private,
  validation_sso_discovery_failed: m.validation_sso_discovery_failed,
  validation_sso_issuer_mismatch: m.validation_sso_issuer_mismatch,
  SSO_NOT_CONFIGURED: m.error_code_SSO_NOT_CONFIGURED,
  SSO_DOMAIN_TAKEN: m.error_code_SSO_DOMAIN_TAKEN,
  SSO_DOMAIN_NOT_VERIFIED: m.error_code_SSO_DOMAIN_NOT_VERIFIED,
})
