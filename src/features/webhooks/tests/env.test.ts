// The webhooks' variable is checked with the core's when the server starts (src/server/env.ts reads the installed
// apps' server/env.ts): private addresses stay refused unless it says otherwise.
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#/server/env'

describe("the webhooks' environment", () => {
  it('keeps endpoints on public addresses unless WEBHOOKS_ALLOW_PRIVATE is 1 or true', () => {
    expect(parseEnv({}).WEBHOOKS_ALLOW_PRIVATE).toBe(false)
    expect(parseEnv({ WEBHOOKS_ALLOW_PRIVATE: '1' }).WEBHOOKS_ALLOW_PRIVATE).toBe(true)
    expect(parseEnv({ WEBHOOKS_ALLOW_PRIVATE: 'true' }).WEBHOOKS_ALLOW_PRIVATE).toBe(true)
    expect(() => parseEnv({ WEBHOOKS_ALLOW_PRIVATE: 'yes' })).toThrow(
      /WEBHOOKS_ALLOW_PRIVATE: must be 1, 0, true or false/,
    )
  })
})
