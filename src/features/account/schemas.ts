import { z } from 'zod'
import { nameField, newPasswordField, optionalUsernameField } from '#/lib/account-rules'

export const profileSchema = z.object({
  name: nameField,
  username: optionalUsernameField,
  image: z
    .string()
    .trim()
    .max(2000, 'validation_url_invalid')
    .refine(
      (value) => value === '' || z.url({ protocol: /^https?$/ }).safeParse(value).success,
      'validation_url_invalid',
    ),
})

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, 'validation_password_required'),
  newPassword: newPasswordField,
  revokeOtherSessions: z.boolean(),
})

export const deleteAccountSchema = z.object({
  password: z.string().min(1, 'validation_password_required'),
  confirmed: z.literal(true, { error: 'validation_required' }),
})
