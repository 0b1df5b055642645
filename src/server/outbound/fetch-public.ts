import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { checkWebhookDestination, pinnedLookup, type RefusedDestination } from './destination'

/** Why a document could not be read from a URL someone typed (an identity provider's metadata or discovery). */
export type FetchRefusal = RefusedDestination | 'unreachable' | 'http-error' | 'too-large'

export type FetchedText = { ok: true; text: string; url: URL } | { ok: false; reason: FetchRefusal }

/**
 * Reads a small text document from a URL a user gave, the way a server should: only from public addresses (unless
 * `allowPrivate`), connecting to an address the check returned (no second lookup), without following redirects (a
 * redirect could lead to an internal address), within 5 seconds and up to `maxBytes`.
 */
export async function fetchPublicText(
  input: string,
  options: { allowPrivate: boolean; maxBytes: number; accept: string; timeoutMs?: number },
): Promise<FetchedText> {
  const checked = await checkWebhookDestination(input, { allowPrivate: options.allowPrivate })
  if (!checked.ok) return checked
  const request = checked.url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    let settled = false
    const finish = (result: FetchedText) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      outgoing.destroy()
      resolve(result)
    }
    const outgoing = request(
      checked.url,
      { headers: { accept: options.accept }, lookup: pinnedLookup(checked.addresses), agent: false },
      (answer: IncomingMessage) => {
        const status = answer.statusCode ?? 0
        if (status < 200 || status > 299) return finish({ ok: false, reason: 'http-error' })
        if (Number(answer.headers['content-length'] ?? 0) > options.maxBytes) {
          return finish({ ok: false, reason: 'too-large' })
        }
        const chunks: Buffer[] = []
        let size = 0
        answer.on('data', (chunk: Buffer) => {
          size += chunk.byteLength
          if (size > options.maxBytes) finish({ ok: false, reason: 'too-large' })
          else chunks.push(chunk)
        })
        answer.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8'), url: checked.url }))
        answer.on('error', () => finish({ ok: false, reason: 'unreachable' }))
      },
    )
    const deadline = setTimeout(() => finish({ ok: false, reason: 'unreachable' }), options.timeoutMs ?? 5000)
    outgoing.on('error', () => finish({ ok: false, reason: 'unreachable' }))
    outgoing.end()
  })
}
