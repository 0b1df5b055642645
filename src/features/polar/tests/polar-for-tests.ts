// Polar as the app's payment provider for a test file: a fake API started before the file's tests (the official SDK
// talks to it) and the environment naming it.
import { randomBytes } from 'node:crypto'
import { fakeProviderForTests } from '../../../../tests/integration/payment-provider-fakes'
import { type FakePolar, startFakePolar } from './fake-polar'

export interface PolarForTests {
  readonly fake: FakePolar
  readonly webhookSecret: string
}

export function polarProvider(accessToken: string): PolarForTests {
  // Polar's secrets since September 2026 are Standard Webhooks keys: "whsec_" and 32 random bytes in base64.
  const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`
  const running = fakeProviderForTests(
    () => startFakePolar({ accessToken }),
    (fake) => ({
      POLAR_ACCESS_TOKEN: accessToken,
      POLAR_WEBHOOK_SECRET: webhookSecret,
      POLAR_API_URL: fake.url,
      POLAR_SERVER: 'sandbox',
    }),
  )
  return {
    get fake() {
      return running.fake
    },
    webhookSecret,
  }
}
