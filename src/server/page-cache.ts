import { createHash } from 'node:crypto'
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib'
import { FastResponse } from 'srvx'
import { chosenEncoding } from './compression'
import { currentRequestId, requestIdHeader } from './log'

type HeaderList = [string, string][]

/** One of a kept page's bodies (plain, brotli or gzip) with its own entity tag and the headers it leaves with. */
interface Representation {
  bytes: Uint8Array<ArrayBuffer>
  etag: string
  /** Every header of its 200 answer but X-Cache and the request id, worked out once (see isCompleteAnswer). */
  headers: HeaderList
  /** The same without the body's own length and encoding: what a 304 says about it. */
  notModified: HeaderList
}

interface CachedPage {
  status: number
  identity: Representation
  /** The same bytes compressed once, when the page was kept. */
  br: Representation
  gzip: Representation
}

/** A kept page's answer, for the server to write as it is: its headers lack only the per-request ones. */
export interface KeptAnswer {
  status: number
  headers: readonly [string, string][]
  body: Uint8Array | null
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

/** Marks an answer that was built with every header it leaves with, as a kept page's is (see isCompleteAnswer). */
export function asCompleteAnswer<T extends Response>(answer: T): T {
  completeAnswers.add(answer)
  return answer
}

/** Revalidated on every use (the ETag makes that a 304), so a new build or setting shows at once. */
export const cachedPageCacheControl = 'public, no-cache'

/**
 * A strong entity tag from the bytes alone, so every server process gives the same bytes the same tag (a tag from
 * anything per process turns a revalidation behind a load balancer into a full download whenever it reaches another
 * process). The suffix says which coding it names, for whoever reads the headers.
 */
export function entityTagOf(bytes: Uint8Array, suffix: '' | '-br' | '-gz'): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}${suffix}"`
}

/**
 * True when a GET or HEAD must answer 304 (RFC 9110, section 13.1.2): the field is `*` (the page exists), or one of
 * its tags equals the selected representation's by weak comparison. A tag of another coding of the same page does
 * not match: a cache holding the gzip body must not be told it may serve it to a client that asked for brotli.
 */
export function noneMatchFails(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque)
}

// The hydration data's clock readings, written by the render: TanStack Router's match `u` and TanStack Query's
// `dehydratedAt` and `dataUpdatedAt`. Their syntax (`{i:"…",u:` and the keys of a dehydrated query) cannot occur in
// the page's text, where React escapes every quote.
const renderTimes = [
  /(\{i:"(?:[^"\\]|\\.)*",u:)\d+/g,
  /(\{dehydratedAt:)\d+/g,
  /(,dataUpdateCount:\d+,dataUpdatedAt:)\d+/g,
]

/**
 * The page with the moment it was rendered taken out. Those readings were the only bytes two processes wrote
 * differently for one page, so each gave it its own ETag. Written as 0 they say what is true of a kept page (its data
 * may be older than the half minute the browser trusts it for): the browser asks for the data again after
 * hydration, as it already did for every page kept longer than that.
 */
export function withoutRenderTimes(html: string): string {
  return renderTimes.reduce((text, pattern) => text.replace(pattern, '$10'), html)
}

/**
 * Rendered HTML (and text) of pages that are the same for every visitor (the landing page, the docs, llms.txt,
 * the sitemap), kept in memory with its brotli and gzip forms and served again until the key changes. Concurrent
 * misses share one render; only 200 answers that set no cookie are kept, so unknown URLs and personal answers never
 * are; the least recently used entry goes when it is full. Each body has its own ETag, from its bytes; an
 * If-None-Match that matches the one chosen answers 304, and HEAD gets GET's headers without the body.
 */
export class PageCache {
  readonly #entries = new Map<string, Promise<CachedPage | undefined>>()
  /** The entries already rendered, for keptAnswer: a key here is also in #entries, which orders them by use. */
  readonly #kept = new Map<string, CachedPage>()

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

  /** `render` must render the page as for a GET, also when `request` is a HEAD: its body is what is kept. */
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
    // Unless the entry went while it rendered (evicted, or a render of the same key that failed).
    if (this.#entries.get(key) === pending) this.#kept.set(key, page)
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
      this.#kept.delete(oldest)
    }
    return toResponse(page, 'miss', request)
  }

  /**
   * The answer to a GET or HEAD of `key` when its page is already kept, worked out without a promise, a Request or a
   * Response: what the server sends before building either (scripts/serve.ts). Undefined when the page is not kept
   * yet, and `serve` renders it.
   */
  keptAnswer(
    key: string,
    method: 'GET' | 'HEAD',
    acceptEncoding: string | undefined,
    ifNoneMatch: string | undefined,
  ): KeptAnswer | undefined {
    const page = this.#kept.get(key)
    if (!page) return undefined
    const entry = this.#entries.get(key)
    if (entry) {
      this.#entries.delete(key) // re-inserted: most recently used last
      this.#entries.set(key, entry)
    }
    const chosen = page[chosenEncoding(acceptEncoding ?? null) ?? 'identity']
    if (noneMatchFails(ifNoneMatch, chosen.etag)) return { status: 304, headers: chosen.notModified, body: null }
    return { status: page.status, headers: chosen.headers, body: method === 'HEAD' ? null : chosen.bytes }
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
  const isHtml = response.headers.get('content-type')?.startsWith('text/html') ?? false
  const html = isHtml ? withoutRenderTimes(await response.text()) : undefined
  const body = html === undefined ? new Uint8Array(await response.arrayBuffer()) : new TextEncoder().encode(html)
  const common = new Headers(response.headers)
  common.delete('content-length')
  common.delete('content-encoding')
  common.delete('etag')
  for (const [name, value] of html === undefined ? [] : headersForHtml(html)) common.append(name, value)
  common.set('Cache-Control', cachedPageCacheControl)
  common.set('Vary', 'Accept-Encoding')
  for (const [name, value] of headersForEveryAnswer) if (!common.has(name)) common.set(name, value)
  const representation = (bytes: Uint8Array<ArrayBuffer>, encoding?: 'br' | 'gzip'): Representation => {
    const etag = entityTagOf(bytes, encoding === 'br' ? '-br' : encoding === 'gzip' ? '-gz' : '')
    const notModified: HeaderList = [...common, ['etag', etag]]
    return {
      bytes,
      etag,
      notModified,
      headers: [
        ...notModified,
        ...(encoding ? [['content-encoding', encoding] satisfies [string, string]] : []),
        ['content-length', String(bytes.byteLength)],
      ],
    }
  }
  const brotli = brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } })
  return {
    status: response.status,
    identity: representation(body),
    br: representation(new Uint8Array(brotli), 'br'),
    gzip: representation(new Uint8Array(gzipSync(body, { level: 9 })), 'gzip'),
  }
}

function toResponse(page: CachedPage, outcome: 'hit' | 'miss', request: Request | undefined): Response {
  const requestId = currentRequestId()
  const perRequest: [string, string][] = [['x-cache', outcome]]
  if (requestId) perRequest.push([requestIdHeader.toLowerCase(), requestId])
  const encoding = chosenEncoding(request?.headers.get('accept-encoding') ?? null)
  const chosen = encoding ? page[encoding] : page.identity
  let answer: Response
  if (noneMatchFails(request?.headers.get('if-none-match'), chosen.etag)) {
    answer = new FastResponse(null, { status: 304, headers: [...chosen.notModified, ...perRequest] })
  } else {
    // srvx writes these bytes and headers to the socket as they are: no copy, no stream and no Headers object per
    // request (the kept bytes are never written to, so every answer may share them). A HEAD gets the same headers,
    // Content-Length included, and no body.
    const body = request?.method === 'HEAD' ? null : chosen.bytes
    answer = new FastResponse(body, { status: page.status, headers: [...chosen.headers, ...perRequest] })
  }
  completeAnswers.add(answer)
  return answer
}
