import { z } from '#/lib/zod'
import { defineEnvRules } from '#/server/app-env-rules'

/** Paddle's variables, validated with the core's when a server starts (src/server/env.ts). */
export const env = {
  /** A Paddle Billing API key (Developer tools → Authentication); with the webhook secret and client token, it takes payments. */
  PADDLE_API_KEY: z.string().trim().min(1, 'must not be empty').optional(),
  /** The secret key of the notification destination (Developer tools → Notifications). */
  PADDLE_WEBHOOK_SECRET: z.string().trim().min(1, 'must not be empty').optional(),
  /** A client-side token (Developer tools → Authentication): Paddle.js opens the checkout with it, in the browser. */
  PADDLE_CLIENT_TOKEN: z
    .string()
    .trim()
    .regex(/^(?:test|live)_[A-Za-z0-9]+$/, 'must be a client-side token, starting with test_ or live_')
    .optional(),
  /** Paddle's sandbox (test cards, no money moves) or production. */
  PADDLE_ENVIRONMENT: z
    .enum(['sandbox', 'production'], { error: 'must be sandbox or production' })
    .default('production'),
  /** Where the Paddle SDK sends its calls; only tests point it elsewhere (a fake Paddle API). */
  PADDLE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
}

/** With its keys set, Paddle takes the payments; one payment provider at most may be configured. */
export const envRules = defineEnvRules(env, {
  together: [['PADDLE_API_KEY', 'PADDLE_WEBHOOK_SECRET']],
  needs: [['PADDLE_API_KEY', 'PADDLE_CLIENT_TOKEN']],
  onlyOneOf: { group: 'payment provider', variable: 'PADDLE_API_KEY' },
  check: ({ PADDLE_CLIENT_TOKEN: token, PADDLE_API_KEY: key, PADDLE_ENVIRONMENT: environment }) => {
    const problems: string[] = []
    // Paddle.js refuses a sandbox token in production and the reverse; say so before a buyer meets a blank checkout.
    if (typeof token === 'string' && token.startsWith('test_') !== (environment === 'sandbox')) {
      problems.push(
        `PADDLE_CLIENT_TOKEN: a ${token.startsWith('test_') ? 'test_' : 'live_'} token does not work with PADDLE_ENVIRONMENT=${environment}`,
      )
    }
    // Paddle's keys say which environment they belong to (pdl_sdbx_… / pdl_live_…); the other API refuses them.
    const keyEnvironment =
      typeof key !== 'string'
        ? undefined
        : key.startsWith('pdl_sdbx_')
          ? 'sandbox'
          : key.startsWith('pdl_live_')
            ? 'production'
            : undefined
    if (keyEnvironment && keyEnvironment !== environment) {
      problems.push(`PADDLE_API_KEY: a ${keyEnvironment} key does not work with PADDLE_ENVIRONMENT=${environment}`)
    }
    return problems
  },
})
