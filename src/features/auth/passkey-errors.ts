import { type AuthClientError, describeAuthError } from '#/lib/auth-errors'
import { passkeyNameMaxLength } from '#/lib/passkey-name'
import { m } from '#/paraglide/messages'

/**
 * What @better-auth/passkey/client answers when a ceremony fails: `error.code` is the WebAuthn error code of
 * @simplewebauthn/browser (ERROR_*), AUTH_CANCELLED or UNKNOWN_ERROR for other browser failures, or the server's code.
 */
type PasskeyClientError = AuthClientError

/** The browser refused the ceremony for a reason the user or the site can act on (not a plain cancel). */
const ceremonyProblems: Record<string, (() => string) | undefined> = {
  ERROR_INVALID_DOMAIN: m.passkey_invalid_domain,
  ERROR_INVALID_RP_ID: m.passkey_invalid_rp_id,
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: m.passkey_user_verification_unsupported,
  ERROR_AUTO_REGISTER_USER_VERIFICATION_FAILURE: m.passkey_user_verification_unsupported,
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: m.passkey_discoverable_unsupported,
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: m.passkey_no_supported_algorithm,
  ERROR_AUTHENTICATOR_GENERAL_ERROR: m.passkey_authenticator_error,
}

/** Errors @simplewebauthn/browser throws as plain `Error`s, which the passkey client passes on by their message. */
const browserMessages: Record<string, (() => string) | undefined> = {
  'WebAuthn is not supported in this browser': m.passkey_not_supported,
  'Registration was not completed': m.passkey_registration_not_completed,
  'Authentication was not completed': m.passkey_authentication_not_completed,
}

/** Whether this browser has WebAuthn at all (checked before a ceremony, so the reason is clear). */
export function browserSupportsPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'
}

/** A failed "add a passkey": previously registered, registration cancelled, a known ceremony problem, else the original message. */
export function describePasskeyRegistrationError(error: PasskeyClientError): string {
  switch (error.code) {
    case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
      return m.passkey_previously_registered()
    case 'ERROR_CEREMONY_ABORTED':
      return m.passkey_registration_cancelled()
    // The browser's NotAllowedError: the user closed the prompt, or it timed out.
    case 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY':
      return m.passkey_not_allowed()
    case 'PASSKEY_NAME_TOO_LONG':
      return m.passkey_name_too_long({ max: String(passkeyNameMaxLength) })
  }
  const translated = (error.code && ceremonyProblems[error.code]) || (error.message && browserMessages[error.message])
  return translated ? translated() : describeAuthError(error)
}

/**
 * A failed passkey sign-in. Whatever went wrong in the ceremony or its verification (no passkey chosen, a passkey
 * this site no longer knows, an expired challenge) is "auth cancelled", as the spec says; only a switched-off method,
 * the rate limit and problems of the site's own set-up keep their own message.
 */
export function describePasskeySignInError(error: PasskeyClientError): string {
  if (error.status === 429 || error.code === 'SIGN_IN_METHOD_IS_NOT_ENABLED') return describeAuthError(error)
  const translated = (error.code && ceremonyProblems[error.code]) || (error.message && browserMessages[error.message])
  return translated ? translated() : m.passkey_auth_cancelled()
}

/** A conditional-UI (autofill) ceremony ended without the user choosing a passkey: nothing to tell them. */
export function isSilentAutofillEnd(error: PasskeyClientError): boolean {
  return (
    error.code === 'ERROR_CEREMONY_ABORTED' ||
    error.code === 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY' ||
    error.code === 'AUTH_CANCELLED'
  )
}
