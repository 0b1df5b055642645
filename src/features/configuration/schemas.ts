import { appSettingsChangeInput, siteSettingsInput } from '#/lib/site-settings'
import { z } from '#/lib/zod'

/** Every setting at once (the form sends them all; only what differs is stored and recorded). */
export const updateConfigurationInput = siteSettingsInput.extend({
  /** The apps' settings: those left out stay as they are. */
  apps: appSettingsChangeInput,
  /** The admin agreed to switch off the method their own session signed in with. */
  confirmSignInMethodOff: z.boolean().default(false),
})

export const configurationChangesInput = z.object({
  // The change log's ids are PostgreSQL integers: a larger cursor would fail its query, not find nothing.
  cursor: z.number().int().positive().max(2_147_483_647).optional(),
  limit: z.number().int().min(1).max(100).default(20),
})
