import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'

/**
 * A password sign-in of a user with two-factor authentication on answers `{ twoFactorRedirect: true,
 * twoFactorMethods }` instead of a session: the browser must go to the challenge page.
 */
export function needsSecondFactor(signInData: unknown): boolean {
  return (
    typeof signInData === 'object' &&
    signInData !== null &&
    (signInData as { twoFactorRedirect?: unknown }).twoFactorRedirect === true
  )
}

// The schemas build their messages when called, in the language of the page (these keys are not in src/lib/errors.ts).

/** A 6-digit code from an authenticator app or an email; the spaces some apps show are dropped. */
export const oneTimeCodeSchema = () =>
  z.object({
    code: z
      .string()
      .transform((value) => value.replace(/\s/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, m.twofa_code_invalid())),
  })

/** A backup code as Better Auth makes them, `abcde-12345`; the dash may be left out. */
export const backupCodeSchema = () =>
  z.object({
    code: z
      .string()
      .transform((value) => value.replace(/\s/g, ''))
      .pipe(z.string().regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, m.twofa_backup_code_invalid()))
      .transform((value) => (value.includes('-') ? value : `${value.slice(0, 5)}-${value.slice(5)}`)),
  })

/** Turning two-factor on or off and new backup codes all ask for the password again. */
export const twoFactorPasswordSchema = z.object({ password: z.string().min(1, 'validation_password_required') })
