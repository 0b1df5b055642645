interface CachedPage {
  body: Uint8Array
  status: number
  headers: [string, string][]
}

/**
 * Rendered HTML of pages that are the same for every visitor (the docs), kept in memory and served again until
 * the key changes. Concurrent misses share one render; only 200 answers are kept, so unknown URLs cannot fill it;
 * the least recently used entry goes when it is full.
 */
export class PageCache {
  readonly #entries = new Map<string, Promise<CachedPage | undefined>>()

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size
  }

  async serve(key: string, render: () => Promise<Response>): Promise<Response> {
    const existing = this.#entries.get(key)
    if (existing) {
      this.#entries.delete(key) // re-inserted below: most recently used last
      this.#entries.set(key, existing)
      const page = await existing
      if (page) return toResponse(page, 'hit')
    }
    let fresh: Response | undefined
    const pending = render().then(async (response) => {
      if (response.status !== 200 || response.headers.has('set-cookie')) {
        fresh = response
        return undefined
      }
      return {
        body: new Uint8Array(await response.arrayBuffer()),
        status: response.status,
        headers: [...response.headers],
      }
    })
    this.#entries.set(key, pending)
    const page = await pending.catch((error: unknown) => {
      this.#entries.delete(key)
      throw error
    })
    if (!page) {
      this.#entries.delete(key)
      return fresh ?? new Response(null, { status: 500 })
    }
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
    }
    return toResponse(page, 'miss')
  }
}

function toResponse(page: CachedPage, outcome: 'hit' | 'miss'): Response {
  const headers = new Headers(page.headers)
  headers.set('X-Cache', outcome)
  return new Response(page.body.slice(), { status: page.status, headers })
}
