import { APIError, createAuthMiddleware } from 'better-auth/api'
import { passwordNeedsLetterAndNumber } from '#/lib/password-policy'
import type { Database } from '../db/client'
import type { getEnv } from '../env'
import { localeOfRequest } from '../request-locale'
import { getSiteSettings } from '../settings'
import { apiKeyHeader } from './api-key-header'
import { disabledMethodError, enabledAuthMethods } from './methods'
import {
  malformedRequestError,
  offSiteRedirectError,
  unknownListFieldError,
  unstorableTextError,
} from './request-checks'

/** The endpoints that set a password, and the body field that carries the new one. */
const newPasswordFields: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/email-otp/reset-password': 'password',
  '/admin/set-user-password': 'newPassword',
}

/**
 * Runs before every auth endpoint: refuses what an API key may not do, malformed or off-site requests, methods that
 * are switched off, and passwords without a letter and a digit; each with a code the client translates.
 */
export function authRequestGuard(db: Database, env: ReturnType<typeof getEnv>, genericProviderIds: string[]) {
  return createAuthMiddleware(async (ctx) => {
    // An API key is for the API (tRPC reads the key's owner through get-session): it must not change the account,
    // mint more keys (which would outlive the deleted one) or end sessions if it leaks.
    if (ctx.path !== '/get-session' && ctx.headers?.get(apiKeyHeader)) {
      throw new APIError('FORBIDDEN', {
        code: 'API_KEY_NOT_ALLOWED_HERE',
        message: 'API keys work only for the API; sign in to manage the account',
      })
    }
    // A user's mistake answers 400 with a code, never a 500 (see request-checks.ts for the cases).
    const malformed =
      malformedRequestError(ctx.path, ctx.body, env.APP_URL) ??
      unstorableTextError(ctx.body, ctx.query) ??
      unknownListFieldError(ctx.path, ctx.query)
    if (malformed) throw new APIError('BAD_REQUEST', malformed)
    const offSite = offSiteRedirectError(ctx.body, ctx.query, env.APP_URL)
    if (offSite) throw new APIError('FORBIDDEN', offSite)
    // Methods switched off in site settings (or not configured) answer with their error code, whatever the client sends.
    const settings = await getSiteSettings(db)
    const disabled = disabledMethodError(
      ctx.path,
      ctx.body,
      enabledAuthMethods(settings, env),
      genericProviderIds,
      settings.apps,
    )
    if (disabled && ctx.path === '/magic-link/verify') {
      // Someone opened an emailed link after the method was switched off: a page that says so, not JSON.
      const locale = localeOfRequest(ctx.request)
      throw ctx.redirect(`${env.APP_URL}/${locale}/magic-link?error=${disabled.code}`)
    }
    if (disabled) throw new APIError('BAD_REQUEST', disabled)
    // Better Auth checks length; the product also wants a letter and a digit, wherever a password is set.
    const field = newPasswordFields[ctx.path]
    if (!field) return
    const candidate = (ctx.body as Record<string, unknown> | undefined)?.[field]
    if (typeof candidate === 'string' && passwordNeedsLetterAndNumber(candidate)) {
      throw new APIError('BAD_REQUEST', {
        code: 'PASSWORD_NEEDS_LETTER_AND_NUMBER',
        message: 'Password must contain at least one letter and one number',
      })
    }
  })
}
