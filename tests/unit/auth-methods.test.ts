import { describe, expect, it } from 'vitest'
import { defaultAppSettings, type SiteSettings } from '#/lib/site-settings'
import { disabledMethodError, enabledAuthMethods } from '#/server/auth/methods'

const allOn: SiteSettings = {
  productName: 'Hatch',
  sourceRepositoryUrl: 'https://github.com/acme/app',
  defaultTheme: 'light',
  docsFooterNavigation: false,
  docsEditBranch: 'main',
  analyticsTimeZone: 'UTC',
  apps: defaultAppSettings(),
  authEmailPassword: true,
  authUsername: true,
  authGithub: true,
  authGoogle: true,
  authGoogleOneTap: true,
  authGenericOauth: true,
  authMagicLink: true,
  authEmailOtp: true,
  authAnonymous: true,
  authPasskey: true,
  signUpOpen: true,
  emailVerificationRequired: false,
  updatedAt: new Date(0),
}
const acme = {
  id: 'acme',
  name: 'Acme SSO',
  discoveryUrl: 'https://id.acme.test/.well-known/openid-configuration',
  clientId: 'c',
  clientSecret: 's',
  scopes: ['openid'],
}
const configured = { GITHUB_CLIENT_ID: 'gh', GOOGLE_CLIENT_ID: 'google-id', OAUTH_PROVIDERS: [acme] }
const unconfigured = { GITHUB_CLIENT_ID: undefined, GOOGLE_CLIENT_ID: undefined, OAUTH_PROVIDERS: [] }

describe('sign-in methods offered to visitors', () => {
  it('shows social buttons only when switched on and configured on the server', () => {
    expect(enabledAuthMethods(allOn, configured)).toMatchObject({
      github: true,
      google: true,
      googleOneTapClientId: 'google-id',
      oauthProviders: [{ id: 'acme', name: 'Acme SSO' }],
    })
    expect(enabledAuthMethods(allOn, unconfigured)).toMatchObject({
      github: false,
      google: false,
      googleOneTapClientId: null,
      oauthProviders: [],
    })
    const off = { ...allOn, authGithub: false, authGoogleOneTap: false, authGenericOauth: false }
    expect(enabledAuthMethods(off, configured)).toMatchObject({
      github: false,
      google: true,
      googleOneTapClientId: null,
      oauthProviders: [],
    })
  })

  it('never sends a client secret to the browser', () => {
    expect(JSON.stringify(enabledAuthMethods(allOn, configured))).not.toContain('"s"')
  })

  it('turns username sign-in off with email and password', () => {
    expect(enabledAuthMethods({ ...allOn, authEmailPassword: false }, configured).username).toBe(false)
  })
})

describe('requests for switched-off methods', () => {
  const ids = ['acme']
  const methods = (change: Partial<SiteSettings>) => enabledAuthMethods({ ...allOn, ...change }, configured)
  const refusal = { code: 'SIGN_IN_METHOD_IS_NOT_ENABLED', message: 'This sign-in method is not enabled' }

  it('are refused with the method error, each by its own switch', () => {
    const cases: [string, unknown, Partial<SiteSettings>][] = [
      ['/sign-in/social', { provider: 'github' }, { authGithub: false }],
      ['/sign-in/social', { provider: 'google' }, { authGoogle: false }],
      ['/sign-in/social', { provider: 'acme' }, { authGenericOauth: false }],
      ['/link-social', { provider: 'acme' }, { authGenericOauth: false }],
      ['/one-tap/callback', { idToken: 'x' }, { authGoogleOneTap: false }],
      ['/sign-in/magic-link', { email: 'a@b.c' }, { authMagicLink: false }],
      ['/magic-link/verify', undefined, { authMagicLink: false }],
      ['/sign-in/email-otp', { email: 'a@b.c', otp: '1' }, { authEmailOtp: false }],
      ['/email-otp/send-verification-otp', { email: 'a@b.c', type: 'sign-in' }, { authEmailOtp: false }],
      ['/email-otp/send-verification-otp', { email: 'a@b.c', type: 'forget-password' }, { authEmailOtp: false }],
      ['/email-otp/request-password-reset', { email: 'a@b.c' }, { authEmailOtp: false }],
      ['/forget-password/email-otp', { email: 'a@b.c' }, { authEmailOtp: false }],
      ['/email-otp/reset-password', { email: 'a@b.c', otp: '1', password: 'x' }, { authEmailOtp: false }],
      ['/email-otp/verify-email', { email: 'a@b.c', otp: '1' }, { authEmailOtp: false }],
      ['/sign-in/anonymous', {}, { authAnonymous: false }],
      ['/passkey/verify-authentication', {}, { authPasskey: false }],
      ['/passkey/generate-register-options', undefined, { authPasskey: false }],
      ['/passkey/verify-registration', {}, { authPasskey: false }],
    ]
    for (const [path, body, change] of cases) {
      expect(disabledMethodError(path, body, methods({}), ids), `${path} while on`).toBeNull()
      expect(disabledMethodError(path, body, methods(change), ids), `${path} while off`).toEqual(refusal)
    }
  })

  it('keep their own codes for email and password and for usernames', () => {
    expect(disabledMethodError('/sign-up/email', {}, methods({ authEmailPassword: false }), ids)?.code).toBe(
      'EMAIL_AND_PASSWORD_IS_NOT_ENABLED',
    )
    expect(disabledMethodError('/sign-in/username', {}, methods({ authUsername: false }), ids)?.code).toBe(
      'USERNAME_SIGN_IN_IS_NOT_ENABLED',
    )
  })

  it('leave unknown providers to Better Auth (PROVIDER_NOT_FOUND)', () => {
    expect(disabledMethodError('/sign-in/social', { provider: 'myspace' }, methods({}), ids)).toBeNull()
  })
})
