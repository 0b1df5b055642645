// Paddle's variables are checked with the core's when the server starts (src/server/env.ts reads the installed
// apps' server/env.ts and their rules): a half-configured provider stops the server with the variable named.
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#/server/env'
import { envRules } from '../server/env'

describe("Paddle's environment", () => {
  it('takes payments once its variables are set, and names the one that is wrong or missing', () => {
    const paddle = {
      PADDLE_API_KEY: 'pdl_live_apikey_1',
      PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_1',
      PADDLE_CLIENT_TOKEN: 'live_0123abc',
    }
    expect(parseEnv(paddle)).toMatchObject({ PADDLE_CLIENT_TOKEN: 'live_0123abc', PADDLE_ENVIRONMENT: 'production' })
    const { PADDLE_CLIENT_TOKEN: _token, ...withoutToken } = paddle
    expect(() => parseEnv(withoutToken)).toThrow(/PADDLE_API_KEY: needs PADDLE_CLIENT_TOKEN as well/)
    expect(() => parseEnv({ ...paddle, PADDLE_CLIENT_TOKEN: 'pdl_live_apikey_1' })).toThrow(
      /PADDLE_CLIENT_TOKEN: must be a client-side token, starting with test_ or live_/,
    )
    // Paddle.js refuses a sandbox token in production and the reverse: the server says so before a buyer meets it.
    expect(() => parseEnv({ ...paddle, PADDLE_ENVIRONMENT: 'sandbox' })).toThrow(
      /PADDLE_CLIENT_TOKEN: a live_ token does not work with PADDLE_ENVIRONMENT=sandbox/,
    )
    expect(() => parseEnv({ ...paddle, PADDLE_CLIENT_TOKEN: 'test_0123abc', PADDLE_ENVIRONMENT: 'sandbox' })).toThrow(
      /PADDLE_API_KEY: a production key does not work with PADDLE_ENVIRONMENT=sandbox/,
    )
    expect(
      parseEnv({
        ...paddle,
        PADDLE_API_KEY: 'pdl_sdbx_apikey_1',
        PADDLE_CLIENT_TOKEN: 'test_0123abc',
        PADDLE_ENVIRONMENT: 'sandbox',
      }),
    ).toMatchObject({ PADDLE_ENVIRONMENT: 'sandbox' })
  })

  it('declares itself one payment provider, so the core refuses it configured beside another (tests/unit/env.test.ts)', () => {
    expect(envRules.onlyOneOf).toEqual({ group: 'payment provider', variable: 'PADDLE_API_KEY' })
  })
})
