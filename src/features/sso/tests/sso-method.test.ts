import { describe, expect, it } from 'vitest'
import { defaultAppSettings } from '#/lib/site-settings'
import { anySignInMethodLeft, disabledMethodError, isSignInMethodEnabled, signInMethodOf } from '#/server/auth/methods'

// Single sign-on is a sign-in method the core knows only through the app's switch (settings.ts, `signInMethod`).
const methods = {
  emailPassword: true,
  username: true,
  github: false,
  google: false,
  googleOneTapClientId: null,
  oauthProviders: [],
  magicLink: true,
  emailOtp: true,
  anonymous: true,
  passkey: true,
}
const on = defaultAppSettings()
const off = { ...on, sso: { enabled: false } }
const refusal = { code: 'SIGN_IN_METHOD_IS_NOT_ENABLED', message: 'This sign-in method is not enabled' }

describe('single sign-on as a sign-in method', () => {
  it('is on by default, and its endpoints go with its switch', () => {
    for (const [path, body] of [
      ['/sign-in/sso', { email: 'ada@acme.example', callbackURL: '/' }],
      ['/sso/saml2/sp/acs/:providerId', {}],
      ['/sso/callback/:providerId', undefined],
    ] as const) {
      expect(disabledMethodError(path, body, methods, [], on), `${path} while on`).toBeNull()
      expect(disabledMethodError(path, body, methods, [], off), `${path} while off`).toEqual(refusal)
    }
  })

  it('is what a session made by its callbacks records, and Configuration asks before switching it off', () => {
    expect(signInMethodOf('/sso/callback/:providerId', {})).toBe('sso')
    expect(signInMethodOf('/sso/saml2/sp/acs/:providerId', {})).toBe('sso')
    expect(signInMethodOf('/sign-in/sso', {}), 'starting one makes no session').toBeNull()
    expect(isSignInMethodEnabled('sso', methods, on)).toBe(true)
    expect(isSignInMethodEnabled('sso', methods, off)).toBe(false)
  })

  it('never counts as the last way in: it serves organizations that set it up, not the app admins', () => {
    const nothingElse = { ...methods, emailPassword: false, magicLink: false, emailOtp: false, passkey: false }
    expect(anySignInMethodLeft(nothingElse)).toBe(false)
  })
})
