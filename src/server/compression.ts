import { promisify } from 'node:util'
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Worth compressing: the text answers the app writes (pages, API JSON, Markdown, feeds). */
const compressibleType = /^(text\/(html|plain|markdown|xml|css)|application\/(json|xml|javascript))\b/
/** Below this, headers and framing outweigh what compression saves. */
export const minimumBytes = 1024

/**
 * The encoding to send for a request's `Accept-Encoding`: brotli when the client takes it, else gzip, else none
 * (plain bytes). A coding listed with `q=0` is refused, as is every coding `*;q=0` does not name with a weight.
 */
export function chosenEncoding(acceptEncoding: string | null): 'br' | 'gzip' | undefined {
  const weights = new Map<string, number>()
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding = '', ...parameters] = part.split(';').map((piece) => piece.trim())
    if (!coding) continue
    const quality = parameters.find((parameter) => parameter.startsWith('q='))
    const weight = quality === undefined ? 1 : Number(quality.slice(2))
    weights.set(coding, Number.isFinite(weight) ? weight : 0)
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0
  if (accepts('br')) return 'br'
  if (accepts('gzip')) return 'gzip'
  return undefined
}

/**
 * An app answer compressed with brotli (or gzip) for a client that accepts it. The body is read whole and compressed
 * on the thread pool, so an aborted download leaves nothing half-piped (a CompressionStream over the live body
 * crashed the server when a browser went away). Answers already encoded, partial or empty are left alone. A HEAD
 * whose answer was rendered with its body is compressed too, so it says what GET's would (RFC 9110): its encoding,
 * Vary and length; the server sends none of the body.
 */
export async function compressedAnswer(request: Request, response: Response): Promise<Response> {
  const encoding = chosenEncoding(request.headers.get('accept-encoding'))
  if (!encoding || !response.body) return response
  if (response.status !== 200 || response.headers.has('content-encoding')) return response
  if (!compressibleType.test(response.headers.get('content-type') ?? '')) return response
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared < minimumBytes) return response
  const body = Buffer.from(await response.arrayBuffer())
  const headers = new Headers(response.headers)
  headers.append('Vary', 'Accept-Encoding')
  if (body.byteLength < minimumBytes) {
    headers.set('Content-Length', String(body.byteLength))
    return new Response(body, { status: response.status, statusText: response.statusText, headers })
  }
  // Quality 5 and level 6: most of the saving for a fraction of the CPU of the highest settings.
  const compressed =
    encoding === 'br'
      ? await brotliAsync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : await gzipAsync(body, { level: 6 })
  headers.set('Content-Encoding', encoding)
  headers.set('Content-Length', String(compressed.byteLength))
  return new Response(compressed, { status: response.status, statusText: response.statusText, headers })
}
