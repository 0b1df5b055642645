import { emailField, nameField, newPasswordField } from '#/lib/account-rules'
import { listPageNumber } from '#/lib/list-schemas'
import { recordId, storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { appRoles, userSortColumns } from './search'

/** A day as the date input gives it (YYYY-MM-DD). */
const day = z.iso.date('validation_date_invalid')

/** The list's filters and order. Guests ("Continue as guest") are left out unless asked for. */
export const userFilters = z.object({
  q: storableString().trim().max(200).optional(),
  role: z.enum(appRoles).optional(),
  status: z.enum(['active', 'banned']).optional(),
  verified: z.enum(['yes', 'no']).optional(),
  kind: z.enum(['accounts', 'guests', 'all']).optional(),
  joinedFrom: day.optional(),
  joinedTo: day.optional(),
  sort: z.enum(userSortColumns).default('createdAt'),
  direction: z.enum(['asc', 'desc']).default('desc'),
})
export type UserFilters = z.output<typeof userFilters>

export const userListInput = userFilters.extend({
  after: z.string().max(1000).optional(),
  before: z.string().max(1000).optional(),
  page: listPageNumber.optional(),
  limit: z.number().int().min(1).max(100).default(25),
})

const userId = recordId()
export const userIdInput = z.object({ userId })

/** How long a ban lasts; `forever` until an admin lifts it. */
export const banDurations = ['1h', '1d', '7d', '30d', 'forever'] as const
export type BanDuration = (typeof banDurations)[number]
export const banSeconds: Record<BanDuration, number | undefined> = {
  '1h': 60 * 60,
  '1d': 24 * 60 * 60,
  '7d': 7 * 24 * 60 * 60,
  '30d': 30 * 24 * 60 * 60,
  forever: undefined,
}

export const banUserInput = z.object({
  userId,
  reason: storableString().trim().min(1, 'validation_required').max(500, 'validation_ban_reason_too_long'),
  duration: z.enum(banDurations),
})
export type BanUserValues = Omit<z.input<typeof banUserInput>, 'userId'>

export const setRoleInput = z.object({ userId, role: z.enum(appRoles) })

export const setPasswordInput = z.object({ userId, newPassword: newPasswordField })

export const revokeSessionInput = z.object({ userId, sessionId: recordId() })

/** A new account: with a password, or (left empty) an email asks the person to choose one. */
export const createUserInput = z.object({
  name: nameField,
  email: emailField,
  role: z.enum(appRoles),
  password: z.union([z.literal(''), newPasswordField]),
})
export type CreateUserValues = z.input<typeof createUserInput>
