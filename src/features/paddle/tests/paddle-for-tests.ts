// Paddle as the app's payment provider for a test file: a fake API started before the file's tests (the official SDK
// talks to it) and the environment naming it.
import { randomBytes } from 'node:crypto'
import { fakeProviderForTests } from '../../../../tests/integration/payment-provider-fakes'
import { type FakePaddle, startFakePaddle } from './fake-paddle'

export interface PaddleForTests {
  readonly fake: FakePaddle
  readonly webhookSecret: string
  readonly clientToken: string
}

export function paddleProvider(apiKey: string): PaddleForTests {
  const webhookSecret = `pdl_ntfset_${randomBytes(16).toString('hex')}`
  const clientToken = 'test_hatchclienttoken0123456789'
  const running = fakeProviderForTests(
    () => startFakePaddle({ apiKey }),
    (fake) => ({
      PADDLE_API_KEY: apiKey,
      PADDLE_WEBHOOK_SECRET: webhookSecret,
      PADDLE_CLIENT_TOKEN: clientToken,
      PADDLE_ENVIRONMENT: 'sandbox',
      PADDLE_API_URL: fake.url,
    }),
  )
  return {
    get fake() {
      return running.fake
    },
    webhookSecret,
    clientToken,
  }
}
