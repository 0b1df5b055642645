import { emailField, nameField, newPasswordField, optionalUsernameField } from '#/lib/account-rules'
import { z } from '#/lib/zod'

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
  name: nameField,
  email: emailField,
  username: optionalUsernameField,
  password: newPasswordField,
})

export const forgotPasswordSchema = z.object({ email: emailField })

export const resetPasswordSchema = z.object({ password: newPasswordField })
