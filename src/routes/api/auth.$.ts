import { createFileRoute } from '@tanstack/react-router'
import { clientIpHeader, getAuth } from '#/server/auth/auth'
import { authUrlTooLongError } from '#/server/auth/request-checks'
import { clientIpOf } from '#/server/trpc/context'

/** Better Auth at /api/auth, told the client's address by the server (never by the client). */
function handleAuthRequest({ request }: { request: Request }) {
  return forwardToAuth(request, request.method)
}

function forwardToAuth(request: Request, method: string) {
  const tooLong = authUrlTooLongError(request.url)
  if (tooLong) return Response.json(tooLong, { status: 414 })
  const headers = new Headers(request.headers)
  headers.set(clientIpHeader, clientIpOf(request))
  const forwarded = new Request(request.url, {
    method,
    headers,
    body: method === 'GET' ? undefined : request.body,
    signal: request.signal,
    // @ts-expect-error -- Node's fetch needs `duplex` to forward a streamed body; the DOM types lack it.
    duplex: 'half',
  })
  return getAuth().handler(forwarded)
}

/**
 * HEAD of the session check answers as its GET, without the body (the check without an API key never gets here: see
 * src/server.ts). Other GET endpoints act (a magic link signs in), so a HEAD, which must not, does not reach them.
 */
async function handleAuthHead({ request }: { request: Request }) {
  if (new URL(request.url).pathname !== '/api/auth/get-session') return new Response(null, { status: 404 })
  const response = await forwardToAuth(request, 'GET')
  void response.body?.cancel()
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
}

export const Route = createFileRoute('/api/auth/$')({
  server: { handlers: { GET: handleAuthRequest, POST: handleAuthRequest, HEAD: handleAuthHead } },
})
