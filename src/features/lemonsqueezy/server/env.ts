import { z } from '#/lib/zod'
import { defineEnvRules } from '#/server/app-env-rules'

/** Lemon Squeezy's variables, validated with the core's when a server starts (src/server/env.ts). */
export const env = {
  /** A Lemon Squeezy API key (Settings → API); with the store, webhook secret and variants, it takes payments. */
  LEMONSQUEEZY_API_KEY: z.string().trim().min(1, 'must not be empty').optional(),
  LEMONSQUEEZY_STORE_ID: z.string().trim().regex(/^\d+$/, 'must be the numeric id of the store').optional(),
  LEMONSQUEEZY_WEBHOOK_SECRET: z
    .string()
    .trim()
    .min(6, 'must be the signing secret of the webhook (6 to 40 characters)')
    .max(40, 'must be the signing secret of the webhook (6 to 40 characters)')
    .optional(),
  /** Which variant sells which plan: `pro-monthly:123,pro-yearly:124,team-monthly:125,team-yearly:126`. */
  LEMONSQUEEZY_VARIANTS: z
    .string()
    .trim()
    .regex(
      /^(?:(?:pro|team)-(?:monthly|yearly):\d+)(?:\s*,\s*(?:pro|team)-(?:monthly|yearly):\d+)*$/,
      'must map each plan and period to a variant id, e.g. pro-monthly:123,pro-yearly:124,team-monthly:125,team-yearly:126',
    )
    .optional(),
  /** The store's currency: Lemon Squeezy sells in one, so checkouts in the other are refused. */
  LEMONSQUEEZY_CURRENCY: z.enum(['USD', 'CNY'], { error: 'must be USD or CNY' }).default('USD'),
}

/** With its keys set, Lemon Squeezy takes the payments; one payment provider at most may be configured. */
export const envRules = defineEnvRules(env, {
  together: [['LEMONSQUEEZY_API_KEY', 'LEMONSQUEEZY_WEBHOOK_SECRET']],
  needs: [
    ['LEMONSQUEEZY_API_KEY', 'LEMONSQUEEZY_STORE_ID'],
    ['LEMONSQUEEZY_API_KEY', 'LEMONSQUEEZY_VARIANTS'],
  ],
  onlyOneOf: { group: 'payment provider', variable: 'LEMONSQUEEZY_API_KEY' },
})
