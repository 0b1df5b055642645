import { createHash } from 'node:crypto'
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib'
import { FastResponse } from 'srvx'
import { chosenEncoding } from './compression'
import { currentRequestId, requestIdHeader } from './log'

type HeaderList = [string, string][]

interface CachedPage {
  body: Uint8Array<ArrayBuffer>
  /** The same bytes compressed once, when the page was kept. */
  brotli: Uint8Array<ArrayBuffer>
  gzip: Uint8Array<ArrayBuffer>
  etag: string
  status: number
  /** Every header of each answer but X-Cache and the request id, worked out once (see isCompleteAnswer). */
  headers: { identity: HeaderList; br: HeaderList; gzip: HeaderList; notModified: HeaderList }
}

const completeAnswers = new WeakSet<Response>()

/**
 * True for a kept page's answer, which already carries every header it leaves with (its security headers, caching,
 * encoding and request id): the entry sends it as it is. Building those headers per request through Headers objects
 * was about a fifth of the time a kept page took.
 */
export function isCompleteAnswer(response: Response): boolean {
  return completeAnswers.has(response)
}

/** Revalidated on every use (the ETag makes that a 304), so a new build or setting shows at once. */
export const cachedPageCacheControl = 'public, no-cache'

/**
 * Rendered HTML (and text) of pages that are the same for every visitor (the landing page, the docs, llms.txt,
 * the sitemap), kept in memory with its brotli and gzip forms and served again until the key changes. Concurrent
 * misses share one render; only 200 answers that set no cookie are kept, so unknown URLs and personal answers never
 * are; the least recently used entry goes when it is full. An If-None-Match that matches answers 304.
 */
export class PageCache {
  readonly #entries = new Map<string, Promise<CachedPage | undefined>>()

  /**
   * @param headersForHtml extra headers for a kept HTML page, from its final text (its script policy, whose hashes
   *   must match the bytes served to everyone)
   * @param headersForEveryAnswer the headers every answer of this server carries (its security headers), added where
   *   the page does not set its own
   */
  constructor(
    readonly maxEntries: number,
    readonly headersForHtml: (html: string) => [string, string][] = () => [],
    readonly headersForEveryAnswer: () => readonly [string, string][] = () => [],
  ) {}

  get size(): number {
    return this.#entries.size
  }

  async serve(key: string, render: () => Promise<Response>, request?: Request): Promise<Response> {
    const existing = this.#entries.get(key)
    if (existing) {
      this.#entries.delete(key) // re-inserted below: most recently used last
      this.#entries.set(key, existing)
      const page = await existing
      if (page) return toResponse(page, 'hit', request)
    }
    let fresh: Response | undefined
    const pending = render().then(async (response) => {
      if (response.status !== 200 || response.headers.has('set-cookie')) {
        fresh = response
        return undefined
      }
      return keep(response, this.headersForHtml, this.headersForEveryAnswer())
    })
    this.#entries.set(key, pending)
    const page = await pending.catch((error: unknown) => {
      this.#entries.delete(key)
      throw error
    })
    if (!page) {
      this.#entries.delete(key)
      return fresh ? this.#withHtmlHeaders(fresh) : new Response(null, { status: 500 })
    }
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
    }
    return toResponse(page, 'miss', request)
  }

  /** An answer that is not kept (a 404, say) still gets the headers its HTML calls for. */
  async #withHtmlHeaders(response: Response): Promise<Response> {
    if (!response.headers.get('content-type')?.startsWith('text/html')) return response
    const html = await response.text()
    const headers = new Headers(response.headers)
    for (const [name, value] of this.headersForHtml(html)) headers.set(name, value)
    headers.delete('content-length')
    return new Response(html, { status: response.status, statusText: response.statusText, headers })
  }
}

async function keep(
  response: Response,
  headersForHtml: (html: string) => [string, string][],
  headersForEveryAnswer: readonly [string, string][],
): Promise<CachedPage> {
  const body = new Uint8Array(await response.arrayBuffer())
  const isHtml = response.headers.get('content-type')?.startsWith('text/html') ?? false
  const common = new Headers(response.headers)
  common.delete('content-length')
  common.delete('content-encoding')
  for (const [name, value] of isHtml ? headersForHtml(new TextDecoder().decode(body)) : []) common.append(name, value)
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  common.set('ETag', etag)
  common.set('Cache-Control', cachedPageCacheControl)
  common.set('Vary', 'Accept-Encoding')
  for (const [name, value] of headersForEveryAnswer) if (!common.has(name)) common.set(name, value)
  const brotli = new Uint8Array(brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }))
  const gzip = new Uint8Array(gzipSync(body, { level: 9 }))
  const withBody = (bytes: Uint8Array, encoding?: string): HeaderList => [
    ...common,
    ...(encoding ? [['content-encoding', encoding] satisfies [string, string]] : []),
    ['content-length', String(bytes.byteLength)],
  ]
  return {
    body,
    brotli,
    gzip,
    etag,
    status: response.status,
    headers: {
      identity: withBody(body),
      br: withBody(brotli, 'br'),
      gzip: withBody(gzip, 'gzip'),
      notModified: [...common],
    },
  }
}

function toResponse(page: CachedPage, outcome: 'hit' | 'miss', request: Request | undefined): Response {
  const requestId = currentRequestId()
  const perRequest: [string, string][] = [['x-cache', outcome]]
  if (requestId) perRequest.push([requestIdHeader.toLowerCase(), requestId])
  const known = request?.headers.get('if-none-match')?.split(',') ?? []
  let answer: Response
  if (known.some((tag) => tag.trim().replace(/^W\//, '') === page.etag)) {
    answer = new FastResponse(null, { status: 304, headers: [...page.headers.notModified, ...perRequest] })
  } else {
    const encoding = chosenEncoding(request?.headers.get('accept-encoding') ?? null)
    const bytes = encoding === 'br' ? page.brotli : encoding === 'gzip' ? page.gzip : page.body
    const headers = encoding ? page.headers[encoding] : page.headers.identity
    // srvx writes these bytes and headers to the socket as they are: no copy, no stream and no Headers object per
    // request (the kept bytes are never written to, so every answer may share them).
    answer = new FastResponse(bytes, { status: page.status, headers: [...headers, ...perRequest] })
  }
  completeAnswers.add(answer)
  return answer
}
