import { randomBytes } from 'node:crypto'
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Webhook } from 'standardwebhooks'
import {
  checkWebhookDestination,
  type HostLookup,
  pinnedLookup,
  type RefusedDestination,
} from '#/server/outbound/destination'

/** How long one attempt may take, from connecting to the last byte read. */
export const deliveryTimeoutMs = 5000
/** How much of a receiver's answer is kept in the delivery log. */
export const responseExcerptBytes = 4096

/** A signing secret in the Standard Webhooks form (`whsec_` and 32 random bytes in base64), shown once. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** One event for one endpoint; its id stays the same on every attempt, so a receiver can drop a repeat. */
export interface WebhookMessage {
  id: string
  type: string
  /** When the event happened: the body's `timestamp`, the same on every attempt. */
  timestamp: Date
  data: unknown
}

export type DeliveryFailure = 'refused-destination' | 'redirect' | 'status' | 'timeout' | 'network'

/** What was sent, as the delivery log shows it: the signature is there, the secret never is. */
export interface SentRequest {
  url: string
  headers: Record<string, string>
  body: string
}

/** What every outcome carries: the request (none when the destination was refused) and the answer's headers. */
interface Exchange {
  ms: number
  excerpt: string
  request: SentRequest | null
  responseHeaders: Record<string, string> | null
}

export type DeliveryOutcome =
  | ({ delivered: true; status: number } & Exchange)
  | ({
      delivered: false
      failure: DeliveryFailure
      status: number | null
      refusedBecause?: RefusedDestination
    } & Exchange)

/** An answer's headers as one string each (a repeated header joined as HTTP allows). */
function flatHeaders(answer: IncomingMessage): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return flat
}

/**
 * The signed request a receiver gets: the body and the three Standard Webhooks headers. `webhook-timestamp` (and so
 * the signature) is when this attempt is sent, not when the event happened: receivers refuse a timestamp more than
 * five minutes from their clock, so a retry or "send again" signed with the event's time would never verify.
 */
export function signedWebhookRequest(secret: string, message: WebhookMessage, sentAt: Date) {
  const body = JSON.stringify({ type: message.type, timestamp: message.timestamp.toISOString(), data: message.data })
  const signature = new Webhook(secret).sign(message.id, sentAt, body)
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': message.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    },
  }
}

/**
 * One attempt to deliver a message: the URL is checked again (its name may point elsewhere since it was saved), the
 * connection goes to an address that check returned, a redirect is an answer and is not followed, and only the
 * first `responseExcerptBytes` of the answer are read. 2xx is delivered; anything else is a failure to retry.
 */
export async function deliverWebhook(
  endpoint: { url: string; secret: string },
  message: WebhookMessage,
  options: { allowPrivate: boolean; timeoutMs?: number; lookup?: HostLookup },
): Promise<DeliveryOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const destination = await checkWebhookDestination(endpoint.url, options)
  if (!destination.ok)
    return {
      delivered: false,
      failure: 'refused-destination',
      refusedBecause: destination.reason,
      status: null,
      ms: elapsed(),
      excerpt: '',
      request: null,
      responseHeaders: null,
    }
  // Signed as it leaves, after the check (a slow name lookup must not age the timestamp).
  const { body, headers } = signedWebhookRequest(endpoint.secret, message, new Date())
  // Name resolution answered from the addresses just checked, so nothing is looked up between check and connect.
  const pinned = pinnedLookup(destination.addresses)
  const request = destination.url.protocol === 'https:' ? httpsRequest : httpRequest
  const sentHeaders = {
    ...headers,
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'Hatch-Webhooks/1',
  }
  const sent: SentRequest = { url: destination.url.href, headers: sentHeaders, body }
  const requestOptions: RequestOptions = { method: 'POST', headers: sentHeaders, lookup: pinned, agent: false }
  let responseHeaders: Record<string, string> | null = null
  return new Promise((resolve) => {
    let settled = false
    const finish = (outcome: DeliveryOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      outgoing.destroy()
      resolve(outcome)
    }
    const failed = (failure: DeliveryFailure, status: number | null = null, excerpt = '') =>
      finish({ delivered: false, failure, status, ms: elapsed(), excerpt, request: sent, responseHeaders })
    const outgoing = request(destination.url, requestOptions, (answer: IncomingMessage) => {
      const status = answer.statusCode ?? 0
      responseHeaders = flatHeaders(answer)
      const chunks: Buffer[] = []
      let kept = 0
      const done = () => {
        const excerpt = Buffer.concat(chunks).subarray(0, responseExcerptBytes).toString('utf8')
        if (status >= 200 && status < 300)
          finish({ delivered: true, status, ms: elapsed(), excerpt, request: sent, responseHeaders })
        else failed(status >= 300 && status < 400 ? 'redirect' : 'status', status, excerpt)
      }
      answer.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        kept += chunk.byteLength
        // Enough to show in the log: the rest of a large answer is not read.
        if (kept >= responseExcerptBytes) done()
      })
      answer.on('end', done)
      answer.on('error', () => done())
    })
    const deadline = setTimeout(() => failed('timeout'), options.timeoutMs ?? deliveryTimeoutMs)
    outgoing.on('error', () => failed('network'))
    outgoing.end(body)
  })
}
