// What other features may use of sign-in (the import rules in .dependency-cruiser.cjs allow nothing else): links to
// the sign-in pages, the social providers on offer, OAuth and passkey errors in words, and the two-factor forms' rules.
export { authPageHref } from './after-sign-in'
export { enabledSocialProviders, type SocialProvider } from './components/social-buttons'
export { oauthErrorCallbackPath, oauthErrorOfSearch } from './oauth-errors'
export { browserSupportsPasskeys, describePasskeyRegistrationError } from './passkey-errors'
export { oneTimeCodeSchema, twoFactorPasswordSchema } from './two-factor'
