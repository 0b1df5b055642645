import { describeAuthError } from '#/lib/auth-errors'
import { m } from '#/paraglide/messages'

// Better Auth sends a failed OAuth round trip back to the `errorCallbackURL` with `?error=<code>`: its own callback
// codes (lower case), the provider's OAuth error (e.g. access_denied), or an API error code (upper case).
const callbackErrors: Record<string, () => string> = {
  access_denied: m.oauth_error_access_denied,
  account_already_linked_to_different_user: m.oauth_error_account_already_linked,
  signup_disabled: m.oauth_error_signup_disabled,
  email_not_found: m.oauth_error_email_missing,
  email_not_verified: m.oauth_error_email_not_verified,
  unable_to_link_account: m.oauth_error_unable_to_link,
  email_does_not_match: m.oauth_error_unable_to_link,
  account_not_linked: m.oauth_error_unable_to_link,
  state_not_found: m.oauth_error_interrupted,
  state_mismatch: m.oauth_error_interrupted,
  please_restart_the_process: m.oauth_error_interrupted,
  invalid_callback_request: m.oauth_error_interrupted,
  no_code: m.oauth_error_interrupted,
  invalid_code: m.oauth_error_interrupted,
  // An identity provider's answer refused (SAML, through Better Auth's SSO plugin), or a sign-in that lost its request.
  invalid_saml_response: m.oauth_error_response_refused,
  saml_error: m.oauth_error_response_refused,
  replay_detected: m.oauth_error_response_refused,
  invalid_state: m.oauth_error_interrupted,
  invalid_request: m.oauth_error_interrupted,
}

/**
 * Marks the page an OAuth round trip comes back to on failure (`?oauth=failed`, then Better Auth's `&error=`), so
 * an `error` another feature sends to the same page is not taken for an OAuth failure.
 */
const failureMarker = ['oauth', 'failed'] as const

/** `path` (with its query) as the `errorCallbackURL` of an OAuth sign-in or link. */
export function oauthErrorCallbackPath(path: string): string {
  const url = new URL(path, 'http://same-origin.invalid')
  url.searchParams.set(...failureMarker)
  return `${url.pathname}${url.search}`
}

/** The message for a page's search parameters: only when an OAuth round trip came back here with an error. */
export function oauthErrorOfSearch(search: Record<string, unknown>): string | null {
  return search[failureMarker[0]] === failureMarker[1] ? describeOauthError(search.error) : null
}

/** What to tell the user about the `error` parameter an OAuth round trip came back with; null when there is none. */
export function describeOauthError(error: unknown): string | null {
  if (typeof error !== 'string' || error === '') return null
  const known = callbackErrors[error.toLowerCase()]
  if (known) return known()
  if (/^[A-Z][A-Z0-9_]*$/.test(error))
    return describeAuthError({ code: error, status: 400, message: m.oauth_error_generic() })
  return m.oauth_error_generic()
}
