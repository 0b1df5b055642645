import { z } from '#/lib/zod'
import { defineEnvRules } from '#/server/app-env-rules'

/** Polar's variables, validated with the core's when a server starts (src/server/env.ts). */
export const env = {
  /** An organization access token of Polar (Settings → Developers); with POLAR_WEBHOOK_SECRET, Polar takes payments. */
  POLAR_ACCESS_TOKEN: z.string().trim().min(1, 'must not be empty').optional(),
  POLAR_WEBHOOK_SECRET: z.string().trim().min(1, 'must not be empty').optional(),
  /** Polar's sandbox (test cards, no money moves) or production. */
  POLAR_SERVER: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).default('production'),
  /** Where the Polar SDK sends its calls; only tests point it elsewhere (a fake Polar API). */
  POLAR_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
}

/** With its keys set, Polar takes the payments; one payment provider at most may be configured. */
export const envRules = defineEnvRules(env, {
  together: [['POLAR_ACCESS_TOKEN', 'POLAR_WEBHOOK_SECRET']],
  onlyOneOf: { group: 'payment provider', variable: 'POLAR_ACCESS_TOKEN' },
})
