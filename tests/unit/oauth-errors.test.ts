import { describe, expect, it } from 'vitest'
import { describeOauthError, oauthErrorCallbackPath, oauthErrorOfSearch } from '#/features/auth/oauth-errors'
import { m } from '#/paraglide/messages'

describe('the message after a failed OAuth round trip', () => {
  it('explains what Better Auth and the provider send back, in the page language', () => {
    expect(describeOauthError('access_denied')).toBe(m.oauth_error_access_denied())
    expect(describeOauthError('account_already_linked_to_different_user')).toBe(m.oauth_error_account_already_linked())
    expect(describeOauthError('state_mismatch')).toBe(m.oauth_error_interrupted())
    expect(describeOauthError('signup_disabled')).toBe(m.oauth_error_signup_disabled())
  })

  it('translates an API error code, and says something useful about anything else', () => {
    expect(describeOauthError('SIGN_IN_METHOD_IS_NOT_ENABLED')).toBe(m.error_code_SIGN_IN_METHOD_IS_NOT_ENABLED())
    expect(describeOauthError('SOMETHING_NEW')).toBe(m.oauth_error_generic())
    expect(describeOauthError('<script>alert(1)</script>')).toBe(m.oauth_error_generic())
  })

  it('shows nothing when there is no error', () => {
    expect(describeOauthError(undefined)).toBeNull()
    expect(describeOauthError('')).toBeNull()
    expect(describeOauthError(['access_denied'])).toBeNull()
  })

  it('speaks only when the page was the error callback of an OAuth round trip', () => {
    expect(oauthErrorCallbackPath('/en/sign-in?redirect=%2Fen%2Fdocs')).toBe(
      '/en/sign-in?redirect=%2Fen%2Fdocs&oauth=failed',
    )
    expect(oauthErrorOfSearch({ oauth: 'failed', error: 'access_denied' })).toBe(m.oauth_error_access_denied())
    expect(oauthErrorOfSearch({ error: 'INVALID_TOKEN' })).toBeNull()
    expect(oauthErrorOfSearch({ oauth: 'failed' })).toBeNull()
  })
})
