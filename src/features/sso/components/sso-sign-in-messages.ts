import { addFeatureMessages } from '#/lib/errors'
import { m } from '#/paraglide/messages'

// "Sign in with SSO"'s field message: it ships with the sign-in page only.
addFeatureMessages({ validation_sso_identifier_required: m.validation_sso_identifier_required })
