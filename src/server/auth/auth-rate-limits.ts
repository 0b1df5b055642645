import type { BetterAuthOptions } from 'better-auth'
import type { getEnv } from '../env'

type RateLimitRules = Pick<NonNullable<BetterAuthOptions['rateLimit']>, 'window' | 'max' | 'customRules'>

/**
 * Better Auth's rate limits, per client address: AUTH_REQUEST_LIMIT per minute for any endpoint, tighter ones for
 * signing in and up and for anything that sends an email. Counted where every app server sees them (auth.ts).
 */
export function authRateLimitRules(env: ReturnType<typeof getEnv>): RateLimitRules {
  return {
    // Any other auth endpoint: AUTH_REQUEST_LIMIT requests per minute per client address and endpoint.
    window: 60,
    max: env.AUTH_REQUEST_LIMIT,
    // Attempts per minute per client address (AUTH_SIGN_IN_LIMIT, AUTH_SIGN_UP_LIMIT).
    // Better Auth takes the FIRST key that matches, so exact paths come before the wildcards that also match them.
    customRules: {
      // Every page and API call checks the session: counting those (a write each) would make an office or school
      // behind one address see 429s just by browsing. Reading a session changes nothing an attacker could use.
      '/get-session': false,
      // Requests that send an email (AUTH_EMAIL_LIMIT per minute per client address).
      '/sign-in/magic-link': { window: 60, max: env.AUTH_EMAIL_LIMIT },
      '/email-otp/send-verification-otp': { window: 60, max: env.AUTH_EMAIL_LIMIT },
      '/email-otp/request-password-reset': { window: 60, max: env.AUTH_EMAIL_LIMIT },
      '/forget-password/email-otp': { window: 60, max: env.AUTH_EMAIL_LIMIT },
      '/request-password-reset': { window: 60, max: env.AUTH_EMAIL_LIMIT },
      '/send-verification-email': { window: 60, max: env.AUTH_EMAIL_LIMIT },
      '/two-factor/send-otp': { window: 60, max: env.AUTH_EMAIL_LIMIT },
      '/change-email': { window: 60, max: env.AUTH_EMAIL_LIMIT },
      '/sign-in/*': { window: 60, max: env.AUTH_SIGN_IN_LIMIT },
      '/sign-up/*': { window: 60, max: env.AUTH_SIGN_UP_LIMIT },
      '/two-factor/verify-*': { window: 60, max: env.AUTH_SIGN_IN_LIMIT },
      '/magic-link/verify': { window: 60, max: env.AUTH_SIGN_IN_LIMIT },
      '/email-otp/verify-*': { window: 60, max: env.AUTH_SIGN_IN_LIMIT },
      '/email-otp/check-verification-otp': { window: 60, max: env.AUTH_SIGN_IN_LIMIT },
      '/email-otp/reset-password': { window: 60, max: env.AUTH_SIGN_IN_LIMIT },
    },
  }
}
