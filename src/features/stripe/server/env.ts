import { z } from '#/lib/zod'
import { defineEnvRules } from '#/server/app-env-rules'

/** Stripe's variables, validated with the core's when a server starts (src/server/env.ts). */
export const env = {
  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must be a Stripe secret key (sk_live_… or sk_test_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must be a webhook signing secret (whsec_…)').optional(),
  /** Where the stripe package sends its calls; only tests point it elsewhere (a fake Stripe API). */
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  STRIPE_PAYMENT_METHODS: z
    .string()
    .default('card')
    .transform((value) =>
      value
        .split(',')
        .map((method) => method.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().regex(/^[a-z_]+$/, 'must be payment method types such as card,alipay,wechat_pay'))
        .min(1, 'must name at least one payment method'),
    ),
}

/** With its keys set, Stripe takes the payments; one payment provider at most may be configured. */
export const envRules = defineEnvRules(env, {
  together: [['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']],
  onlyOneOf: { group: 'payment provider', variable: 'STRIPE_SECRET_KEY' },
})
