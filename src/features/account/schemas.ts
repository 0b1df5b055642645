import { nameField, newPasswordField, optionalUsernameField } from '#/lib/account-rules'
import { z } from '#/lib/zod'

export const profileSchema = z.object({
  name: nameField,
  username: optionalUsernameField,
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
