import { m } from '#/paraglide/messages'
import { authErrorMessages } from './auth-error-messages'
import { translateErrorCode } from './errors'
import { currentIntlLocale } from './i18n'

/** Better Auth's client error: a code, the server's message, and the HTTP status. */
export interface AuthClientError {
  code?: string
  message?: string
  status: number
  /** Sent with BANNED_USER (src/server/auth/user-administration.ts): why, and until when (none: until lifted). */
  banReason?: string
  banExpires?: string | null
  /** Sent with PLAN_LIMIT_MEMBERS (src/features/organizations/server/organization-plugin.ts): the plan's member limit. */
  limit?: number
  /** Sent with ACCOUNT_TEMPORARILY_LOCKED (src/server/auth/sign-in-throttle.ts): how long sign-in stays paused. */
  retryAfterSeconds?: number
}

/**
 * The translation of `error_code_{code}` for an auth failure, else the server's message. Kept apart from errors.ts so
 * that pages without sign-in (the landing page) do not carry every auth error text.
 */
export function describeAuthError(error: AuthClientError): string {
  // Better Auth's rate limiter answers 429 without a code (or one we do not list); our own limits' 429s have theirs.
  const ownLimit = error.code !== undefined && Object.hasOwn(authErrorMessages, error.code)
  const code =
    error.status === 429 && !ownLimit && error.code !== 'ACCOUNT_TEMPORARILY_LOCKED' ? 'TOO_MANY_REQUESTS' : error.code
  if (code === 'ACCOUNT_TEMPORARILY_LOCKED' && typeof error.retryAfterSeconds === 'number') {
    return m.error_account_locked_minutes({ minutes: String(Math.max(1, Math.ceil(error.retryAfterSeconds / 60))) })
  }
  if (code === 'BANNED_USER' && typeof error.banReason === 'string') {
    const reason = error.banReason
    if (!error.banExpires) return m.error_banned_forever({ reason })
    const until = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })
    return m.error_banned_until({ reason, date: until.format(new Date(error.banExpires)) })
  }
  if (code === 'PLAN_LIMIT_MEMBERS' && typeof error.limit === 'number') {
    return m.error_code_PLAN_LIMIT_MEMBERS({ limit: String(error.limit) })
  }
  const authMessage =
    code && Object.hasOwn(authErrorMessages, code)
      ? authErrorMessages[code as keyof typeof authErrorMessages]
      : undefined
  return authMessage?.() ?? translateErrorCode(code) ?? (error.message || m.error_code_INTERNAL_SERVER_ERROR())
}
