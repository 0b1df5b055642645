import { z } from '#/lib/zod'

/** API key limits, shared by the form and the server's api-key plugin (src/server/auth/auth.ts). */
export const apiKeyLimits = {
  nameMax: 32,
  /** Characters of a key kept in clear for the list: the `hatch_` prefix and 4 more. */
  startLength: 10,
  maxExpiryDays: 365,
}

/** The expiry choices of the create form, in days; `never` keeps the key until it is deleted. */
export const apiKeyExpiryChoices = ['never', '7', '30', '90', '365'] as const
export type ApiKeyExpiryChoice = (typeof apiKeyExpiryChoices)[number]

export const createApiKeySchema = z.object({
  name: z.string().trim().min(1, 'validation_required').max(apiKeyLimits.nameMax, 'apikeys_name_too_long'),
  expiry: z.enum(apiKeyExpiryChoices, { error: 'validation_required' }),
})

/** Seconds until expiry for the server, or null for a key that never expires. */
export function expiresInSeconds(expiry: ApiKeyExpiryChoice): number | null {
  return expiry === 'never' ? null : Number(expiry) * 24 * 60 * 60
}
