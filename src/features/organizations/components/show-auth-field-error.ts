import type { AnyFormApi } from '@tanstack/react-form'
import type { AuthErrorCode } from '#/lib/auth-error-messages'
import { type AuthClientError, describeAuthError } from '#/lib/auth-errors'

/**
 * Shows a Better Auth refusal that is about one field (a taken slug) beside that field, as `showServerFieldErrors`
 * does for a procedure's field errors. `fieldOfCode` names the field of each such code; any other refusal returns
 * false, for the caller to show as it shows every other failure.
 */
export function showAuthFieldError(
  form: AnyFormApi,
  error: AuthClientError,
  fieldOfCode: Partial<Record<AuthErrorCode, string>>,
): boolean {
  const field =
    error.code && Object.hasOwn(fieldOfCode, error.code) ? fieldOfCode[error.code as AuthErrorCode] : undefined
  if (!field) return false
  const message = describeAuthError(error)
  form.setFieldMeta(field, (meta) => ({ ...meta, errorMap: { ...meta.errorMap, onSubmit: message } }))
  return true
}
