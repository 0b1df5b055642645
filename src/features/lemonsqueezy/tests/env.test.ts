// Lemon Squeezy's variables are checked with the core's when the server starts (src/server/env.ts reads the installed
// apps' server/env.ts and their rules): a half-configured provider stops the server with the variable named.
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#/server/env'
import { envRules } from '../server/env'

describe("Lemon Squeezy's environment", () => {
  it('takes payments once its variables are set, and names the one that is wrong or missing', () => {
    const lemon = {
      LEMONSQUEEZY_API_KEY: 'key',
      LEMONSQUEEZY_WEBHOOK_SECRET: 'signing-secret',
      LEMONSQUEEZY_STORE_ID: '7',
      LEMONSQUEEZY_VARIANTS: 'pro-monthly:1, pro-yearly:2,team-monthly:3,team-yearly:4',
    }
    expect(parseEnv(lemon)).toMatchObject({ LEMONSQUEEZY_STORE_ID: '7', LEMONSQUEEZY_CURRENCY: 'USD' })
    expect(() => parseEnv({ ...lemon, LEMONSQUEEZY_VARIANTS: 'pro:1' })).toThrow(
      /LEMONSQUEEZY_VARIANTS: must map each plan and period to a variant id/,
    )
    const { LEMONSQUEEZY_STORE_ID: _store, ...withoutStore } = lemon
    expect(() => parseEnv(withoutStore)).toThrow(/LEMONSQUEEZY_API_KEY: needs LEMONSQUEEZY_STORE_ID as well/)
    const { LEMONSQUEEZY_WEBHOOK_SECRET: _secret, ...withoutSecret } = lemon
    expect(() => parseEnv(withoutSecret)).toThrow(
      /LEMONSQUEEZY_WEBHOOK_SECRET: must be set together with LEMONSQUEEZY_API_KEY/,
    )
  })

  it('declares itself one payment provider, so the core refuses it configured beside another (tests/unit/env.test.ts)', () => {
    expect(envRules.onlyOneOf).toEqual({ group: 'payment provider', variable: 'LEMONSQUEEZY_API_KEY' })
  })
})
