import { TRPCClientError } from '@trpc/client'
import { m } from '#/paraglide/messages'
import { passwordLimits } from './password-policy'

// The keys a schema may name; listed, so the bundle carries only these strings.
const validationMessages: Record<string, (() => string) | undefined> = {
  validation_required: m.validation_required,
  validation_text_invalid_characters: m.validation_text_invalid_characters,
  validation_email_required: m.validation_email_required,
  validation_email_invalid: m.validation_email_invalid,
  validation_password_required: m.validation_password_required,
  validation_password_min: () => m.validation_password_min({ min: String(passwordLimits.min) }),
  validation_password_max: () => m.validation_password_max({ max: String(passwordLimits.max) }),
  validation_password_letter_number: m.validation_password_letter_number,
  validation_username_invalid: m.validation_username_invalid,
  validation_name_too_long: m.validation_name_too_long,
  validation_url_invalid: m.validation_url_invalid,
  validation_organization_name_too_long: m.validation_organization_name_too_long,
  validation_slug_invalid: m.validation_slug_invalid,
  validation_team_name_too_long: m.validation_team_name_too_long,
  validation_role_name_invalid: m.validation_role_name_invalid,
  validation_role_name_taken: m.validation_role_name_taken,
  members_role_required: m.members_role_required,
  validation_date_invalid: m.validation_date_invalid,
  validation_ban_reason_too_long: m.validation_ban_reason_too_long,
  validation_seats_invalid: m.validation_seats_invalid,
  validation_plan_invalid: m.validation_plan_invalid,
  validation_plan_change_stale: m.validation_plan_change_stale,
  validation_currency_invalid: m.validation_currency_invalid,
  validation_list_search_too_long: m.validation_list_search_too_long,
  validation_list_sort_invalid: m.validation_list_sort_invalid,
  validation_list_filter_invalid: m.validation_list_filter_invalid,
  validation_list_page_size_invalid: m.validation_list_page_size_invalid,
  validation_list_page_invalid: m.validation_list_page_invalid,
  validation_record_id_invalid: m.validation_record_id_invalid,
  validation_product_name_too_long: m.validation_product_name_too_long,
  validation_branch_invalid: m.validation_branch_invalid,
  validation_time_zone_invalid: m.validation_time_zone_invalid,
  validation_webhook_url_invalid: m.validation_webhook_url_invalid,
  validation_webhook_url_private: m.validation_webhook_url_private,
  validation_webhook_url_private_allow: m.validation_webhook_url_private_allow,
  validation_webhook_url_unresolved: m.validation_webhook_url_unresolved,
  validation_webhook_events_required: m.validation_webhook_events_required,
  validation_webhook_events_invalid: m.validation_webhook_events_invalid,
  validation_webhook_description_too_long: m.validation_webhook_description_too_long,
  assistant_title_too_long: m.assistant_title_too_long,
  assistant_conversation_not_found: m.assistant_conversation_not_found,
}

// The codes a failed tRPC call may carry, each translated by `error_code_{CODE}` (Better Auth's: auth-errors.ts).
const errorCodeMessages: Record<string, (() => string) | undefined> = {
  BAD_REQUEST: m.error_code_BAD_REQUEST,
  UNAUTHORIZED: m.error_code_UNAUTHORIZED,
  FORBIDDEN: m.error_code_FORBIDDEN,
  NOT_FOUND: m.error_code_NOT_FOUND,
  TOO_MANY_REQUESTS: m.error_code_TOO_MANY_REQUESTS,
  INTERNAL_SERVER_ERROR: m.error_code_INTERNAL_SERVER_ERROR,
  SERVICE_UNAVAILABLE: m.error_code_SERVICE_UNAVAILABLE,
  STORAGE_FULL: m.error_code_STORAGE_FULL,
  REQUEST_TOO_LARGE: m.error_code_REQUEST_TOO_LARGE,
  JSON_BODY_REQUIRED: m.error_code_JSON_BODY_REQUIRED,
  CONFLICT: m.error_code_CONFLICT,
  // The app's own refusals (AppError in src/server/trpc/init.ts), sent as `data.appCode`
  APP_ADMIN_ONLY: m.error_code_APP_ADMIN_ONLY,
  OWNER_ONLY: m.error_code_OWNER_ONLY,
  ALREADY_OWNER: m.error_code_ALREADY_OWNER,
  MEMBER_NOT_FOUND: m.error_code_MEMBER_NOT_FOUND,
  NO_ACTIVE_ORGANIZATION: m.error_code_NO_ACTIVE_ORGANIZATION,
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: m.error_code_YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION,
  INVALID_CURSOR: m.error_code_INVALID_CURSOR,
  LAST_SIGN_IN_METHOD: m.error_code_LAST_SIGN_IN_METHOD,
  TIME_ZONE_UNKNOWN: m.error_code_TIME_ZONE_UNKNOWN,
  CONFIRM_SIGN_IN_METHOD_OFF: m.error_code_CONFIRM_SIGN_IN_METHOD_OFF,
  CONVERSATION_NOT_FOUND: m.error_code_CONVERSATION_NOT_FOUND,
  ORGANIZATION_NOT_FOUND: m.error_code_ORGANIZATION_NOT_FOUND,
  // App codes named like Better Auth's, for the same refusal made by our own procedures (users, sessions).
  BANNED_USER: m.error_code_BANNED_USER,
  EMAIL_ALREADY_VERIFIED: m.error_code_EMAIL_ALREADY_VERIFIED,
  USER_NOT_FOUND: m.error_code_USER_NOT_FOUND,
  YOU_CANNOT_REMOVE_YOURSELF: m.error_code_YOU_CANNOT_REMOVE_YOURSELF,
  LAST_APP_ADMIN: m.error_code_LAST_APP_ADMIN,
  SESSION_NOT_FOUND: m.error_code_SESSION_NOT_FOUND,
  USER_IS_GUEST: m.error_code_USER_IS_GUEST,
  WEBHOOK_NOT_FOUND: m.error_code_WEBHOOK_NOT_FOUND,
  FILE_TOO_LARGE: m.error_code_FILE_TOO_LARGE,
  IMAGE_NOT_ACCEPTED: m.error_code_IMAGE_NOT_ACCEPTED,
  WEBHOOK_DELIVERY_NOT_FOUND: m.error_code_WEBHOOK_DELIVERY_NOT_FOUND,
  WEBHOOK_DELIVERY_BUSY: m.error_code_WEBHOOK_DELIVERY_BUSY,
  WEBHOOK_ENDPOINT_OFF: m.error_code_WEBHOOK_ENDPOINT_OFF,
}

/** App codes whose message names a value (`data.params`). */
const parameterisedMessages: Record<string, ((params: Record<string, string>) => string) | undefined> = {
  NOT_ALLOWED_TO_ACCESS_RESOURCE: (params) =>
    m.error_code_NOT_ALLOWED_TO_ACCESS_RESOURCE({ resource: params.resource ?? '' }),
  PLAN_LIMIT_MEMBERS: (params) => m.error_code_PLAN_LIMIT_MEMBERS({ limit: params.limit ?? '' }),
  PLAN_LIMIT_AI_REQUESTS: (params) => m.error_code_PLAN_LIMIT_AI_REQUESTS({ limit: params.limit ?? '' }),
  WEBHOOK_LIMIT: (params) => m.error_code_WEBHOOK_LIMIT({ limit: params.limit ?? '' }),
  BATCH_TOO_LARGE: (params) => m.error_code_BATCH_TOO_LARGE({ limit: params.limit ?? '' }),
  EMAIL_NOT_DEAD: m.error_code_EMAIL_NOT_DEAD,
  KEPT_EMAIL_NOT_FOUND: m.error_code_KEPT_EMAIL_NOT_FOUND,
  JOB_NOT_FAILED: m.error_code_JOB_NOT_FAILED,
}

const errorCodePrefix = 'error_code_'

// Texts only one screen needs (its field messages and refusal codes), registered by that screen's module, so they ship
// with it rather than with every page.
const featureMessages: Record<string, ((params: Record<string, string>) => string) | undefined> = {}

/**
 * Registers a feature's own message keys and app codes (its `validation_…` keys, its refusals' codes), each given the
 * code's values (`data.params`) when it has some.
 */
export function addFeatureMessages(messages: Record<string, (params: Record<string, string>) => string>): void {
  Object.assign(featureMessages, messages)
}

/** The translation of an error code, if it has one (own keys only: a code never reaches Object.prototype). */
export function translateErrorCode(code: string | undefined): string | undefined {
  if (code && Object.hasOwn(featureMessages, code)) return featureMessages[code]?.({})
  return code && Object.hasOwn(errorCodeMessages, code) ? errorCodeMessages[code]?.() : undefined
}

/** The translation of an app code with its values (`data.params`), if it has one. */
export function translateAppError(appCode: string, params: Record<string, string> = {}): string | undefined {
  const parameterised = Object.hasOwn(parameterisedMessages, appCode) ? parameterisedMessages[appCode] : undefined
  if (parameterised) return parameterised(params)
  if (Object.hasOwn(featureMessages, appCode)) return featureMessages[appCode]?.(params)
  return translateErrorCode(appCode)
}

/** Translates a message key (as our zod schemas use) or returns the text as it is. */
export function translateMessage(keyOrText: string): string {
  const validation = Object.hasOwn(validationMessages, keyOrText)
    ? validationMessages[keyOrText]
    : Object.hasOwn(featureMessages, keyOrText)
      ? featureMessages[keyOrText]
      : undefined
  if (validation) return validation({})
  if (keyOrText.startsWith(errorCodePrefix))
    return translateErrorCode(keyOrText.slice(errorCodePrefix.length)) ?? keyOrText
  return keyOrText
}

/** Field errors as the server's error formatter sends them with BAD_REQUEST. */
export function fieldErrorsOf(error: unknown): Record<string, string[] | undefined> {
  if (!(error instanceof TRPCClientError)) return {}
  return (error.data as { fieldErrors?: Record<string, string[] | undefined> } | undefined)?.fieldErrors ?? {}
}

/** The app's own code of a failed call (AppError on the server), with its values, if it has one. */
export function appErrorOf(error: unknown): { appCode: string; params: Record<string, string> } | null {
  if (!(error instanceof TRPCClientError)) return null
  const { appCode, params } = (error.data ?? {}) as { appCode?: string; params?: Record<string, string> }
  return appCode ? { appCode, params: params ?? {} } : null
}

/**
 * What to tell the user about a failed call: the first field error, else the translation of `error_code_{code}`,
 * else the server's own message.
 */
export function describeError(error: unknown): string {
  const firstFieldError = Object.values(fieldErrorsOf(error)).find((list) => list?.length)?.[0]
  if (firstFieldError) return translateMessage(firstFieldError)
  if (error instanceof TRPCClientError) {
    const { appCode, params } = (error.data ?? {}) as { appCode?: string; params?: Record<string, string> }
    if (appCode) {
      const translated = translateAppError(appCode, params ?? {})
      if (translated) return translated
    }
    const code = (error.data as { code?: string } | undefined)?.code
    const translated = translateErrorCode(code)
    if (translated) return translated
    if (!error.data) return m.error_network()
    return error.message
  }
  return error instanceof Error ? error.message : String(error)
}
