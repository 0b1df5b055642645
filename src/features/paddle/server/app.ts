import { defineServerApp } from '#/server/app-manifest'
import { getEnv } from '#/server/env'

/** Paddle.js and the files it loads, on the Paddle checkout page. */
const paddleScripts = 'https://cdn.paddle.com'

const configured = () => {
  const env = getEnv()
  return Boolean(env.PADDLE_API_KEY && env.PADDLE_WEBHOOK_SECRET && env.PADDLE_CLIENT_TOKEN)
}

/** Paddle takes the payments once its API key, webhook secret and client token are set. */
export const serverApp = defineServerApp({
  name: 'paddle',
  paymentProvider: {
    id: 'paddle',
    configured,
    load: async () => {
      const env = getEnv()
      const { PaddlePaymentProvider } = await import('./provider')
      return new PaddlePaymentProvider({
        apiKey: env.PADDLE_API_KEY ?? '',
        webhookSecret: env.PADDLE_WEBHOOK_SECRET ?? '',
        environment: env.PADDLE_ENVIRONMENT,
        apiUrl: env.PADDLE_API_URL,
        appUrl: env.APP_URL,
      })
    },
  },
  scriptSources: () => (configured() ? [paddleScripts] : []),
})
