import { z } from 'zod'
import { passwordLimits, passwordNeedsLetterAndNumber } from '#/lib/password-policy'

// Messages are keys of messages/*.json (translated by src/lib/errors.ts); Better Auth checks everything again.
const email = z
  .string()
  .trim()
  .min(1, 'validation_email_required')
  .pipe(z.email('validation_email_invalid').max(254, 'validation_email_invalid'))

const newPassword = z
  .string()
  .min(1, 'validation_password_required')
  .min(passwordLimits.min, 'validation_password_min')
  .max(passwordLimits.max, 'validation_password_max')
  .refine((password) => !passwordNeedsLetterAndNumber(password), 'validation_password_letter_number')

/** A username: 3 to 30 letters, digits, dots or underscores (Better Auth's username plugin rules). */
export const usernamePattern = /^[a-zA-Z0-9_.]{3,30}$/

export const signInSchema = z.object({
  /** An email address, or a username when it has no @. */
  identifier: z
    .string()
    .trim()
    .min(1, 'validation_email_required')
    .refine((value) => !value.includes('@') || z.email().safeParse(value).success, 'validation_email_invalid'),
  password: z.string().min(1, 'validation_password_required'),
  rememberMe: z.boolean(),
})

export const signUpSchema = z.object({
  name: z.string().trim().min(1, 'validation_required').max(100, 'validation_name_too_long'),
  email,
  username: z
    .string()
    .trim()
    .refine((value) => value === '' || usernamePattern.test(value), 'validation_username_invalid'),
  password: newPassword,
})

export type SignInValues = z.infer<typeof signInSchema>
export type SignUpValues = z.infer<typeof signUpSchema>

export const forgotPasswordSchema = z.object({ email })

export const resetPasswordSchema = z.object({ password: newPassword })
