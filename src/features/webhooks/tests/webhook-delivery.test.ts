import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { deliverWebhook, newWebhookSecret, responseExcerptBytes } from '#/features/webhooks/server/delivery'

interface Received {
  headers: IncomingMessage['headers']
  body: string
}

const servers: Server[] = []
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** A customer's receiver on this machine: it records what arrives and answers as `reply` says. */
async function receiver(reply: (response: ServerResponse, received: Received) => void) {
  const received: Received[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') }
      received.push(entry)
      reply(response, entry)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/hooks`, port, received }
}

const message = {
  id: 'msg_2r8YhQ1c5mXn',
  type: 'member.added',
  timestamp: new Date(),
  data: { memberId: 'mem_1', name: 'Ada Lovelace', role: 'member' },
}

describe('delivering one webhook', () => {
  it('sends a body the receiver verifies with the same library, once', async () => {
    const secret = newWebhookSecret()
    const target = await receiver((response) => response.writeHead(204).end())
    const outcome = await deliverWebhook({ url: target.url, secret }, message, { allowPrivate: true })
    expect(outcome).toMatchObject({ delivered: true, status: 204 })
    expect(target.received).toHaveLength(1)
    const [arrived] = target.received
    const verified = new Webhook(secret).verify(arrived?.body ?? '', arrived?.headers as Record<string, string>)
    expect(verified).toEqual({ type: 'member.added', timestamp: message.timestamp.toISOString(), data: message.data })
    expect(arrived?.headers['webhook-id']).toBe(message.id)
    // Another secret does not verify it: the signature is the endpoint's own.
    expect(() =>
      new Webhook(newWebhookSecret()).verify(arrived?.body ?? '', arrived?.headers as Record<string, string>),
    ).toThrow()
  })

  it('signs each attempt with its own time, so a retry a day after the event still verifies', async () => {
    const secret = newWebhookSecret()
    const target = await receiver((response) => response.writeHead(204).end())
    const happened = new Date('2026-11-27T10:00:00Z')
    // Only Date moves: the clock of this process (sender and verifier alike) is a day and a minute after the event.
    vi.useFakeTimers({ toFake: ['Date'], now: happened.getTime() + 86_400_000 + 60_000 })
    const outcome = await deliverWebhook(
      { url: target.url, secret },
      { ...message, timestamp: happened },
      {
        allowPrivate: true,
      },
    )
    expect(outcome).toMatchObject({ delivered: true })
    const [arrived] = target.received
    const headers = arrived?.headers as Record<string, string>
    expect(Number(headers['webhook-timestamp']), 'the header carries the attempt’s time').toBe(
      Math.floor(Date.now() / 1000),
    )
    expect(new Webhook(secret).verify(arrived?.body ?? '', headers)).toMatchObject({
      // The body keeps when the event happened, the same on every attempt.
      timestamp: happened.toISOString(),
    })
    expect(arrived?.headers['webhook-id']).toBe(message.id)
  })

  it('counts an error answer as a failure and keeps only the start of a long answer', async () => {
    const target = await receiver((response) => response.writeHead(500).end('x'.repeat(50_000)))
    const outcome = await deliverWebhook({ url: target.url, secret: newWebhookSecret() }, message, {
      allowPrivate: true,
    })
    expect(outcome).toMatchObject({ delivered: false, failure: 'status', status: 500 })
    expect(outcome.excerpt.length).toBe(responseExcerptBytes)
  })

  it('does not follow a redirect', async () => {
    const elsewhere = await receiver((response) => response.writeHead(200).end())
    const target = await receiver((response) => response.writeHead(307, { location: elsewhere.url }).end())
    const outcome = await deliverWebhook({ url: target.url, secret: newWebhookSecret() }, message, {
      allowPrivate: true,
    })
    expect(outcome).toMatchObject({ delivered: false, failure: 'redirect', status: 307 })
    expect(elsewhere.received).toHaveLength(0)
  })

  it('gives up on a receiver that does not answer in time', async () => {
    const target = await receiver(() => {
      // Never answers.
    })
    const outcome = await deliverWebhook({ url: target.url, secret: newWebhookSecret() }, message, {
      allowPrivate: true,
      timeoutMs: 300,
    })
    expect(outcome).toMatchObject({ delivered: false, failure: 'timeout', status: null })
    expect(outcome.ms).toBeGreaterThanOrEqual(290)
  })

  it('sends nothing to a private address unless allowed, and connects to the address it checked', async () => {
    const target = await receiver((response) => response.writeHead(200).end('ok'))
    const refused = await deliverWebhook({ url: target.url, secret: newWebhookSecret() }, message, {
      allowPrivate: false,
    })
    expect(refused).toMatchObject({
      delivered: false,
      failure: 'refused-destination',
      refusedBecause: 'private-address',
    })
    expect(target.received).toHaveLength(0)
    // A name resolved once, by the check: the connection goes where the check said, under the name it was given.
    let lookups = 0
    const named = await deliverWebhook(
      { url: `http://hooks.customer.test:${target.port}/hooks`, secret: newWebhookSecret() },
      message,
      {
        allowPrivate: true,
        lookup: async () => {
          lookups++
          return [{ address: '127.0.0.1', family: 4 }]
        },
      },
    )
    expect(named).toMatchObject({ delivered: true, status: 200, excerpt: 'ok' })
    expect(lookups).toBe(1)
    expect(target.received[0]?.headers.host).toBe(`hooks.customer.test:${target.port}`)
  })

  it('reports a refused connection as a network failure', async () => {
    const target = await receiver((response) => response.end())
    const closed = target.url
    await new Promise((resolve) => servers.pop()?.close(resolve))
    const outcome = await deliverWebhook({ url: closed, secret: newWebhookSecret() }, message, { allowPrivate: true })
    expect(outcome).toMatchObject({ delivered: false, failure: 'network', status: null })
  })
})
