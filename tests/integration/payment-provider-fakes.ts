// Paddle or Polar as the app's payment provider for a test file: a fake API started before the file's tests (the
// official SDK talks to it) and the environment naming it, read once on first use, so set before any request.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll } from 'vitest'
import { type FakePaddle, startFakePaddle } from '../support/fake-paddle'
import { type FakePolar, startFakePolar } from '../support/fake-polar'

/** Sets the variables for the file's tests and removes them after. */
function withEnvironment(variables: () => Record<string, string>) {
  let names: string[] = []
  beforeAll(() => {
    const values = variables()
    names = Object.keys(values)
    Object.assign(process.env, values)
  })
  afterAll(() => {
    for (const name of names) delete process.env[name]
  })
}

export interface PaddleForTests {
  readonly fake: FakePaddle
  readonly webhookSecret: string
  readonly clientToken: string
}

export function paddleProvider(apiKey: string): PaddleForTests {
  let fake: FakePaddle | undefined
  const webhookSecret = `pdl_ntfset_${randomBytes(16).toString('hex')}`
  const clientToken = 'test_hatchclienttoken0123456789'
  beforeAll(async () => {
    fake = await startFakePaddle({ apiKey })
  })
  withEnvironment(() => ({
    PADDLE_API_KEY: apiKey,
    PADDLE_WEBHOOK_SECRET: webhookSecret,
    PADDLE_CLIENT_TOKEN: clientToken,
    PADDLE_ENVIRONMENT: 'sandbox',
    PADDLE_API_URL: started(fake).url,
  }))
  afterAll(async () => {
    await fake?.close()
  })
  return {
    get fake() {
      return started(fake)
    },
    webhookSecret,
    clientToken,
  }
}

export interface PolarForTests {
  readonly fake: FakePolar
  readonly webhookSecret: string
}

export function polarProvider(accessToken: string): PolarForTests {
  let fake: FakePolar | undefined
  // Polar's secrets since September 2026 are Standard Webhooks keys: "whsec_" and 32 random bytes in base64.
  const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`
  beforeAll(async () => {
    fake = await startFakePolar({ accessToken })
  })
  withEnvironment(() => ({
    POLAR_ACCESS_TOKEN: accessToken,
    POLAR_WEBHOOK_SECRET: webhookSecret,
    POLAR_API_URL: started(fake).url,
    POLAR_SERVER: 'sandbox',
  }))
  afterAll(async () => {
    await fake?.close()
  })
  return {
    get fake() {
      return started(fake)
    },
    webhookSecret,
  }
}

function started<T>(fake: T | undefined): T {
  if (!fake) throw new Error('the fake provider starts before the tests: read it inside a test or hook')
  return fake
}
