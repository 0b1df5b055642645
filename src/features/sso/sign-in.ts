import { defineSignInApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'
import { SsoSignIn } from './components/sso-sign-in'

/** "Sign in with SSO" among the ways to sign in, and the refusals of the guards (server/sso-guards.ts) in words. */
export const signInApp = defineSignInApp({
  name: 'sso',
  alternatives: [{ shown: (settings) => settings.apps.sso.enabled, component: SsoSignIn }],
  authErrorMessages: {
    SSO_REQUIRED: m.error_code_SSO_REQUIRED,
    SSO_EMAIL_OUTSIDE_DOMAIN: m.error_code_SSO_EMAIL_OUTSIDE_DOMAIN,
    SSO_EMAIL_INVALID: m.error_code_SSO_EMAIL_INVALID,
    API_KEY_SSO_REQUIRED: m.error_code_API_KEY_SSO_REQUIRED,
  },
})
