import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { insightsScript } from '../insights-script'

const body = new TextEncoder().encode(insightsScript)
const gzipped = gzipSync(body, { level: 9 })
const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`

/** The script, gzipped when the browser accepts it, cached for an hour and revalidated by its ETag. */
export function serveInsightsScript(request: Request): Response {
  const headers = new Headers({
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=3600',
    ETag: etag,
    Vary: 'Accept-Encoding',
  })
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
  if (/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
    headers.set('Content-Encoding', 'gzip')
    return new Response(gzipped, { headers })
  }
  return new Response(body, { headers })
}

export const insightsScriptGzipBytes = gzipped.byteLength
