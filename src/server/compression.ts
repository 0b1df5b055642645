/** Content types worth compressing: markup, JSON, scripts, styles and other text. */
const compressibleType =
  /^(text\/(?!event-stream)|application\/(json|javascript|xml|manifest\+json|rss\+xml)|image\/svg\+xml)/
/** Below this a compressed answer saves nothing worth the work. */
const minimumBytes = 1024

/**
 * The answer gzip-compressed on its way out when the client accepts it and it is text of some size (pages, tRPC's
 * JSON, scripts). Streams stay streams. Answers that are compressed already (the page cache's) pass through.
 */
export function compressed(request: Request, response: Response): Response {
  if (request.method === 'HEAD' || !response.body || response.status === 204 || response.status === 304) {
    return response
  }
  if (response.headers.has('content-encoding')) return response
  if (!compressibleType.test(response.headers.get('content-type') ?? '')) return response
  const length = response.headers.get('content-length')
  if (length !== null && Number(length) < minimumBytes) return response
  if (!/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) return response
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  headers.set('content-encoding', 'gzip')
  headers.append('vary', 'Accept-Encoding')
  return new Response(response.body.pipeThrough(new CompressionStream('gzip')), {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}
