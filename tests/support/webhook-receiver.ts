import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

/** A message as the receiver saw it, and whether its signature verified with the secret the receiver was given. */
export interface ReceivedWebhook {
  id: string
  type: string
  timestamp: string
  data: Record<string, unknown>
  verified: boolean
  headers: IncomingHttpHeaders
}

/**
 * A customer's webhook receiver for the tests: it verifies each request with the `standardwebhooks` package (as the
 * docs tell customers to) and answers 204, or, while told to fail, the given status.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = []
  let secret: string | undefined
  let failWith: number | undefined
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let verified = false
      try {
        if (secret) {
          new Webhook(secret).verify(body, request.headers as Record<string, string>)
          verified = true
        }
      } catch {
        verified = false
      }
      const parsed = JSON.parse(body) as { type: string; timestamp: string; data: Record<string, unknown> }
      received.push({
        id: String(request.headers['webhook-id']),
        type: parsed.type,
        timestamp: parsed.timestamp,
        data: parsed.data,
        verified,
        headers: request.headers,
      })
      if (failWith) {
        response.writeHead(failWith, { 'content-type': 'text/plain' })
        response.end(`Receiver down for maintenance (${failWith})`)
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
    ofType: (type: string) => received.filter((message) => message.type === type),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>
