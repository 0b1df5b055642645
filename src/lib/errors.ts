import { TRPCClientError } from '@trpc/client'
import { m } from '#/paraglide/messages'
import { passwordLimits } from './password-policy'

// The keys a schema or an error code may name; listed, so the bundle carries only these strings.
const messages: Record<string, (() => string) | undefined> = {
  validation_required: m.validation_required,
  validation_email_required: m.validation_email_required,
  validation_email_invalid: m.validation_email_invalid,
  validation_password_required: m.validation_password_required,
  validation_password_min: () => m.validation_password_min({ min: String(passwordLimits.min) }),
  validation_password_max: () => m.validation_password_max({ max: String(passwordLimits.max) }),
  validation_password_letter_number: m.validation_password_letter_number,
  validation_username_invalid: m.validation_username_invalid,
  validation_name_too_long: m.validation_name_too_long,
  validation_url_invalid: m.validation_url_invalid,
  error_code_BAD_REQUEST: m.error_code_BAD_REQUEST,
  error_code_NOT_FOUND: m.error_code_NOT_FOUND,
  error_code_TOO_MANY_REQUESTS: m.error_code_TOO_MANY_REQUESTS,
  error_code_INTERNAL_SERVER_ERROR: m.error_code_INTERNAL_SERVER_ERROR,
  error_code_INVALID_EMAIL_OR_PASSWORD: m.error_code_INVALID_EMAIL_OR_PASSWORD,
  error_code_INVALID_USERNAME_OR_PASSWORD: m.error_code_INVALID_USERNAME_OR_PASSWORD,
  error_code_USER_ALREADY_EXISTS: m.error_code_USER_ALREADY_EXISTS,
  error_code_USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: m.error_code_USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL,
  error_code_USERNAME_IS_ALREADY_TAKEN: m.error_code_USERNAME_IS_ALREADY_TAKEN,
  error_code_USERNAME_TOO_SHORT: m.error_code_USERNAME_TOO_SHORT,
  error_code_USERNAME_TOO_LONG: m.error_code_USERNAME_TOO_LONG,
  error_code_INVALID_USERNAME: m.error_code_INVALID_USERNAME,
  error_code_INVALID_EMAIL: m.error_code_INVALID_EMAIL,
  error_code_PASSWORD_TOO_SHORT: m.error_code_PASSWORD_TOO_SHORT,
  error_code_PASSWORD_TOO_LONG: m.error_code_PASSWORD_TOO_LONG,
  error_code_PASSWORD_NEEDS_LETTER_AND_NUMBER: m.error_code_PASSWORD_NEEDS_LETTER_AND_NUMBER,
  error_code_EMAIL_AND_PASSWORD_IS_NOT_ENABLED: m.error_code_EMAIL_AND_PASSWORD_IS_NOT_ENABLED,
  error_code_INVALID_ORIGIN: m.error_code_INVALID_ORIGIN,
  error_code_INVALID_TOKEN: m.error_code_INVALID_TOKEN,
  error_code_TOKEN_EXPIRED: m.error_code_TOKEN_EXPIRED,
  error_code_INVALID_PASSWORD: m.error_code_INVALID_PASSWORD,
  error_code_USERNAME_SIGN_IN_IS_NOT_ENABLED: m.error_code_USERNAME_SIGN_IN_IS_NOT_ENABLED,
}

/** Translates a message key (as our zod schemas use) or returns the text as it is. */
export function translateMessage(keyOrText: string): string {
  const message = messages[keyOrText]
  return typeof message === 'function' ? message() : keyOrText
}

/** Field errors as the server's error formatter sends them with BAD_REQUEST. */
export function fieldErrorsOf(error: unknown): Record<string, string[] | undefined> {
  if (!(error instanceof TRPCClientError)) return {}
  return (error.data as { fieldErrors?: Record<string, string[] | undefined> } | undefined)?.fieldErrors ?? {}
}

/**
 * What to tell the user about a failed call: the first field error, else the translation of `error_code_{code}`,
 * else the server's own message.
 */
export function describeError(error: unknown): string {
  const firstFieldError = Object.values(fieldErrorsOf(error)).find((list) => list?.length)?.[0]
  if (firstFieldError) return translateMessage(firstFieldError)
  if (error instanceof TRPCClientError) {
    const code = (error.data as { code?: string } | undefined)?.code
    if (code) {
      const translated = messages[`error_code_${code}`]
      if (translated) return translated()
    }
    if (!error.data) return m.error_network()
    return error.message
  }
  return error instanceof Error ? error.message : String(error)
}

/** Better Auth's client error: a code, the server's message, and the HTTP status. */
export interface AuthClientError {
  code?: string
  message?: string
  status: number
}

/** The translation of `error_code_{code}` for an auth failure, else the server's message. */
export function describeAuthError(error: AuthClientError): string {
  const code = error.status === 429 ? 'TOO_MANY_REQUESTS' : error.code
  const translated = code ? messages[`error_code_${code}`] : undefined
  if (translated) return translated()
  return error.message || m.error_code_INTERNAL_SERVER_ERROR()
}
