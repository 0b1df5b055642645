// How the soak's requests look on the wire: the browser's shapes (tRPC with superjson, Better Auth JSON, beacons,
// MCP JSON-RPC), shared by the set-up (fetch) and the load (autocannon).

export const soakPassword = 'soak-engine-1843'

/** A browser's user agent: beacons from an empty or bot user agent are (rightly) not counted. */
export const browserUserAgent = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'

/** A tRPC query's path, its input serialised by superjson as the client sends it (plain JSON needs no meta). */
export function trpcQueryPath(procedure: string, input?: unknown): string {
  if (input === undefined) return `/api/trpc/${procedure}`
  return `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`
}

/** A tRPC mutation's body. */
export function trpcBody(input: unknown): string {
  return JSON.stringify({ json: input })
}

/** The data of a tRPC answer's body, or undefined when it is an error or not JSON. */
export function trpcData<T>(body: string): T | undefined {
  try {
    return (JSON.parse(body) as { result?: { data?: { json?: T } } }).result?.data?.json
  } catch {
    return undefined
  }
}

/** The session cookie from Set-Cookie lines, without the signed session copy (it expires; the token does not). */
export function sessionCookieOf(setCookie: string[]): string {
  return setCookie
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => pair.includes('session_token=') && !pair.endsWith('='))
    .join('; ')
}

/** A whole book as the form sends it (every field present, as the procedure's input requires). */
export function bookPayload(title: string, description = '') {
  return {
    title,
    authors: ['Soak Author'],
    isbn: null,
    publishedYear: 2001,
    language: 'en',
    tags: ['soak'],
    coverUrl: null,
    description,
  }
}

/** A small CSV file of `rows` books, each titled `${titlePrefix} row N`. */
export function importCsv(titlePrefix: string, rows: number): { csv: string; titles: string[] } {
  const titles = Array.from({ length: rows }, (_, index) => `${titlePrefix} row ${index + 1}`)
  const lines = [
    'title,authors,isbn,published_year,language,tags',
    ...titles.map((title) => `${title},Importer,,1999,en,soak`),
  ]
  return { csv: lines.join('\n'), titles }
}

/** An MCP tool call as one JSON-RPC request (the server is stateless: no session to open first). */
export function mcpToolCall(id: number, name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
}

export const mcpHeaders = (key: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'x-api-key': key,
})

/** A page view as /insights/script.js sends it (navigator.sendBeacon: text/plain). */
export function beaconBody(pageViewId: string, pageUrl: string): string {
  return JSON.stringify({
    type: 'pageview',
    id: pageViewId,
    url: pageUrl,
    entry: true,
    referrer: 'https://news.example/',
    language: 'en-US',
    screenWidth: 1280,
  })
}
