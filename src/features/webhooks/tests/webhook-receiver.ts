import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

/** A message as the receiver saw it, whether its signature verified with the secret it was given, and the answer. */
export interface ReceivedWebhook {
  id: string
  type: string
  timestamp: string
  data: Record<string, unknown>
  verified: boolean
  /** Why `Webhook.verify` refused it ("Message timestamp too old", …), when it did. */
  verifyError?: string
  headers: IncomingHttpHeaders
  /** The status the receiver answered with. */
  answered: number
}

/** The status to answer with, or undefined for the usual one. */
type Answer = number | undefined

/**
 * A customer's webhook receiver for the tests: it verifies each request with the `standardwebhooks` package (as the
 * docs tell customers to) and answers 204, or, while told to fail, the given status.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = []
  let secret: string | undefined
  let failWith: number | undefined
  let failWhen: ((message: ReceivedWebhook) => Answer | Promise<Answer>) | undefined
  let beforeAnswer: ((message: ReceivedWebhook) => Promise<void>) | undefined
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let verified = false
      let verifyError: string | undefined
      try {
        if (secret) {
          new Webhook(secret).verify(body, request.headers as Record<string, string>)
          verified = true
        }
      } catch (error) {
        verified = false
        verifyError = error instanceof Error ? error.message : String(error)
      }
      const parsed = JSON.parse(body) as { type: string; timestamp: string; data: Record<string, unknown> }
      const message: ReceivedWebhook = {
        id: String(request.headers['webhook-id']),
        type: parsed.type,
        timestamp: parsed.timestamp,
        data: parsed.data,
        verified,
        verifyError,
        headers: request.headers,
        answered: 204,
      }
      message.answered = (await failWhen?.(message)) ?? failWith ?? 204
      received.push(message)
      await beforeAnswer?.(message)
      if (message.answered !== 204) {
        response.writeHead(message.answered, { 'content-type': 'text/plain' })
        response.end(`Receiver down for maintenance (${message.answered})`)
        return
      }
      response.writeHead(204)
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** The secret the endpoint was created with (shown once). */
    trust(endpointSecret: string) {
      secret = endpointSecret
    },
    /** Answers every request with `status` until called with undefined. */
    failWith(status: number | undefined) {
      failWith = status
    },
    /** Answers a request with the status `decide` gives it (undefined: as usual); it may look at the database first. */
    failWhen(decide: ((message: ReceivedWebhook) => Answer | Promise<Answer>) | undefined) {
      failWhen = decide
    },
    /** Runs before each answer is sent, while the sender waits for it. */
    beforeAnswer(hook: ((message: ReceivedWebhook) => Promise<void>) | undefined) {
      beforeAnswer = hook
    },
    ofType: (type: string) => received.filter((message) => message.type === type),
    /** The messages it accepted (answered 2xx), in the order they arrived. */
    accepted: () => received.filter((message) => message.answered < 300),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>
