// Stripe's variables are checked with the core's when the server starts (src/server/env.ts reads the installed
// apps' server/env.ts and their rules): a half-configured provider stops the server with the variable named.
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#/server/env'
import { envRules } from '../server/env'

describe("Stripe's environment", () => {
  it('takes payments once its variables are set, and names the one that is wrong or missing', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }
    expect(parseEnv(stripe)).toMatchObject({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PAYMENT_METHODS: ['card'] })
    expect(parseEnv({ ...stripe, STRIPE_PAYMENT_METHODS: 'card, alipay' }).STRIPE_PAYMENT_METHODS).toEqual([
      'card',
      'alipay',
    ])
    expect(() => parseEnv({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: must be set together with STRIPE_SECRET_KEY/,
    )
    expect(() => parseEnv({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_1' })).toThrow(
      /STRIPE_SECRET_KEY: must be a Stripe secret key/,
    )
    expect(() => parseEnv({ ...stripe, STRIPE_PAYMENT_METHODS: 'card,Apple Pay' })).toThrow(
      /STRIPE_PAYMENT_METHODS.*: must be payment method types/,
    )
  })

  it('declares itself one payment provider, so the core refuses it configured beside another (tests/unit/env.test.ts)', () => {
    expect(envRules.onlyOneOf).toEqual({ group: 'payment provider', variable: 'STRIPE_SECRET_KEY' })
  })
})
