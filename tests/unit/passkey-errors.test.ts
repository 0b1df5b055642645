import { describe, expect, it } from 'vitest'
import {
  describePasskeyRegistrationError,
  describePasskeySignInError,
  isSilentAutofillEnd,
} from '#/features/auth/passkey-errors'

// The shapes @better-auth/passkey/client answers with (node_modules/@better-auth/passkey/dist/client.mjs).
const failure = (code: string, message: string, status = 400) => ({ code, message, status })

describe('passkey registration errors', () => {
  it('names a previously registered authenticator and a cancelled registration', () => {
    expect(
      describePasskeyRegistrationError(failure('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', 'Previously registered')),
    ).toBe('This authenticator was previously registered to your account.')
    expect(describePasskeyRegistrationError(failure('ERROR_CEREMONY_ABORTED', 'Registration cancelled'))).toBe(
      'Passkey registration cancelled.',
    )
  })

  it('translates the browser failures and known ceremony problems', () => {
    expect(describePasskeyRegistrationError(failure('UNKNOWN_ERROR', 'Registration was not completed', 500))).toBe(
      'Registration was not completed.',
    )
    expect(
      describePasskeyRegistrationError(failure('UNKNOWN_ERROR', 'WebAuthn is not supported in this browser', 500)),
    ).toBe('WebAuthn is not supported in this browser.')
    expect(describePasskeyRegistrationError(failure('ERROR_INVALID_RP_ID', 'The RP ID "x" is invalid'))).toBe(
      "This site's passkey settings do not match its address.",
    )
  })

  it('keeps the original message of anything else', () => {
    expect(describePasskeyRegistrationError(failure('SOMETHING_NEW', 'Something new went wrong'))).toBe(
      'Something new went wrong',
    )
  })
})

describe('passkey sign-in errors', () => {
  it('reports every failed ceremony or verification as cancelled', () => {
    for (const error of [
      failure('AUTH_CANCELLED', 'Auth cancelled'),
      failure('ERROR_CEREMONY_ABORTED', 'Auth cancelled'),
      failure('PASSKEY_NOT_FOUND', 'Passkey not found', 401),
      failure('AUTHENTICATION_FAILED', 'Authentication failed'),
    ]) {
      expect(describePasskeySignInError(error)).toBe('Passkey sign-in was cancelled or did not succeed.')
    }
  })

  it('keeps a switched-off method and the rate limit apart', () => {
    expect(describePasskeySignInError(failure('SIGN_IN_METHOD_IS_NOT_ENABLED', 'not enabled'))).not.toBe(
      'Passkey sign-in was cancelled or did not succeed.',
    )
    expect(describePasskeySignInError({ message: 'Too many requests', status: 429 })).not.toBe(
      'Passkey sign-in was cancelled or did not succeed.',
    )
  })

  it('ends an autofill ceremony quietly when the visitor picked nothing, but not when the server refused', () => {
    expect(isSilentAutofillEnd(failure('ERROR_CEREMONY_ABORTED', 'Auth cancelled'))).toBe(true)
    expect(isSilentAutofillEnd(failure('PASSKEY_NOT_FOUND', 'Passkey not found', 401))).toBe(false)
  })
})
