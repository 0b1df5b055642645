import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib'
import { chosenEncoding } from '#/server/compression'
import { framingPolicy } from '#/server/content-security-policy'
import { entityTagOf, noneMatchFails } from '#/server/page-cache'
import { insightsScript } from '../insights-script'

/** One of the script's bodies (plain, brotli or gzip) and the strong ETag its bytes give it. */
interface Representation {
  bytes: Uint8Array<ArrayBuffer>
  etag: string
  encoding?: 'br' | 'gzip'
}

function representationOf(bytes: Uint8Array<ArrayBuffer>, encoding?: 'br' | 'gzip'): Representation {
  return { bytes, etag: entityTagOf(bytes, encoding === 'br' ? '-br' : encoding === 'gzip' ? '-gz' : ''), encoding }
}

// Compressed once, at the highest settings: the bytes never change while the process runs, and both compressors give
// the same bytes in every process, so every process gives each body the same tag.
const plain = new TextEncoder().encode(insightsScript)
const representations = {
  identity: representationOf(plain),
  br: representationOf(
    new Uint8Array(brotliCompressSync(plain, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } })),
    'br',
  ),
  gzip: representationOf(new Uint8Array(gzipSync(plain, { level: 9 })), 'gzip'),
}

/**
 * The script in the coding the browser prefers (brotli, gzip or plain, a `q=0` refusing one), cached for an hour and
 * revalidated by that body's own ETag (RFC 9110): an If-None-Match of `*`, or naming that tag weak or strong, gets a
 * 304; the tag of another coding does not, as the client holds a different body than it would get. HEAD gets GET's
 * headers, its length included, and no body.
 */
export function serveInsightsScript(request: Request): Response {
  const encoding = chosenEncoding(request.headers.get('accept-encoding'))
  const chosen = encoding ? representations[encoding] : representations.identity
  const headers = new Headers({
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=3600',
    ETag: chosen.etag,
    Vary: 'Accept-Encoding',
    // The policy every non-page answer carries. Without it the answer would get a page's, naming a nonce made for
    // this request alone: useless to a script file, and a header that differs between a GET and its HEAD.
    'Content-Security-Policy': framingPolicy,
  })
  if (noneMatchFails(request.headers.get('if-none-match'), chosen.etag)) {
    return new Response(null, { status: 304, headers })
  }
  if (chosen.encoding) headers.set('Content-Encoding', chosen.encoding)
  headers.set('Content-Length', String(chosen.bytes.byteLength))
  return new Response(request.method === 'HEAD' ? null : chosen.bytes, { headers })
}

export const insightsScriptGzipBytes = representations.gzip.bytes.byteLength
