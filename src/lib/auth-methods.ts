/** The sign-in methods a visitor can use right now: switched on in site settings and configured on the server. */
export interface AuthMethods {
  emailPassword: boolean
  username: boolean
  github: boolean
  google: boolean
  /** The Google client id one-tap needs in the browser (a public value); null when one-tap is off. */
  googleOneTapClientId: string | null
  /** Generic OAuth / OpenID Connect providers from OAUTH_PROVIDERS. */
  oauthProviders: { id: string; name: string }[]
  magicLink: boolean
  emailOtp: boolean
  anonymous: boolean
  passkey: boolean
}
