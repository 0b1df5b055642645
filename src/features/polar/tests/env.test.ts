// Polar's variables are checked with the core's when the server starts (src/server/env.ts reads the installed
// apps' server/env.ts and their rules): a half-configured provider stops the server with the variable named.
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#/server/env'
import { envRules } from '../server/env'

describe("Polar's environment", () => {
  it('takes payments once its variables are set, and names the one that is wrong or missing', () => {
    const polar = { POLAR_ACCESS_TOKEN: 'polar_oat_1', POLAR_WEBHOOK_SECRET: 'whsec_2' }
    expect(parseEnv(polar)).toMatchObject({ POLAR_ACCESS_TOKEN: 'polar_oat_1', POLAR_SERVER: 'production' })
    expect(() => parseEnv({ POLAR_ACCESS_TOKEN: 'polar_oat_1' })).toThrow(
      /POLAR_WEBHOOK_SECRET: must be set together with POLAR_ACCESS_TOKEN/,
    )
    expect(() => parseEnv({ ...polar, POLAR_SERVER: 'staging' })).toThrow(/POLAR_SERVER: must be sandbox or production/)
  })

  it('declares itself one payment provider, so the core refuses it configured beside another (tests/unit/env.test.ts)', () => {
    expect(envRules.onlyOneOf).toEqual({ group: 'payment provider', variable: 'POLAR_ACCESS_TOKEN' })
  })
})
