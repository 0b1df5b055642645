import { z } from '#/lib/zod'
import { passwordLimits, passwordNeedsLetterAndNumber } from './password-policy'

// Field rules shared by the sign-in area and the account area. Messages are keys of messages/*.json
// (translated by src/lib/errors.ts); Better Auth checks everything again on the server.

/** The longest address SMTP allows (RFC 5321); the server refuses longer ones too. */
export const emailMaxLength = 254
/** The longest display name; the server refuses longer ones too. */
export const nameMaxLength = 100

export const emailField = z
  .string()
  .trim()
  .min(1, 'validation_email_required')
  .pipe(z.email('validation_email_invalid').max(emailMaxLength, 'validation_email_invalid'))

export const newPasswordField = z
  .string()
  .min(1, 'validation_password_required')
  .min(passwordLimits.min, 'validation_password_min')
  .max(passwordLimits.max, 'validation_password_max')
  .refine((password) => !passwordNeedsLetterAndNumber(password), 'validation_password_letter_number')

/** A username: 3 to 30 letters, digits, dots or underscores (Better Auth's username plugin rules). */
const usernamePattern = /^[a-zA-Z0-9_.]{3,30}$/

export const optionalUsernameField = z
  .string()
  .trim()
  .refine((value) => value === '' || usernamePattern.test(value), 'validation_username_invalid')

export const nameField = z.string().trim().min(1, 'validation_required').max(nameMaxLength, 'validation_name_too_long')

/** Where an uploaded picture or logo is stored: content-addressed, so it can be served publicly and cached for ever. */
export const uploadedPictureKey = /^(avatars|logos)\/[A-Za-z0-9_-]{1,100}\/[a-f0-9]{16}-(64|256)\.webp$/

/**
 * A picture this site stored from an upload (`{APP_URL}/api/files/avatars/{id}/{hash}-256.webp`, logos alike): the
 * only address a profile picture or a logo may be set to, so nobody's picture can send everyone who sees it to another
 * server (a tracker, a `javascript:` or `data:` URL). Pictures from a sign-in provider are set by Better Auth itself.
 */
export function isUploadedPictureUrl(value: string, appUrl: string, folder: 'avatars' | 'logos'): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  const prefix = `/api/files/${folder}/`
  return (
    url.href === value &&
    url.origin === new URL(appUrl).origin &&
    url.search === '' &&
    url.hash === '' &&
    url.pathname.startsWith(prefix) &&
    uploadedPictureKey.test(url.pathname.slice('/api/files/'.length))
  )
}

/**
 * An account without a password is deleted on the strength of a recent sign-in: this many minutes after signing in.
 * Accounts with a password give it again instead (src/server/auth/account-deletion.ts enforces both).
 */
export const deleteAfterSignInMinutes = 10
