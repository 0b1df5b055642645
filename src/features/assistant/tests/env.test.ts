// The assistant's variable is checked with the core's when the server starts (src/server/env.ts reads the installed
// apps' server/env.ts): a default, and a clear refusal of a value it cannot run with.
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#/server/env'

describe("the assistant's environment", () => {
  it('allows 20 messages a minute unless told otherwise, and refuses fewer than one', () => {
    expect(parseEnv({}).AI_REQUESTS_PER_MINUTE).toBe(20)
    expect(parseEnv({ AI_REQUESTS_PER_MINUTE: '5' }).AI_REQUESTS_PER_MINUTE).toBe(5)
    expect(() => parseEnv({ AI_REQUESTS_PER_MINUTE: '0' })).toThrow(/AI_REQUESTS_PER_MINUTE: must be at least 1/)
  })
})
