import { createFileRoute } from '@tanstack/react-router'
import { clientIpHeader, getAuth } from '#/server/auth/auth'
import { authUrlTooLongError } from '#/server/auth/request-checks'
import { clientIpOf } from '#/server/trpc/context'

/** Better Auth at /api/auth, told the client's address by the server (never by the client). */
function handleAuthRequest({ request }: { request: Request }) {
  const tooLong = authUrlTooLongError(request.url)
  if (tooLong) return Response.json(tooLong, { status: 414 })
  const headers = new Headers(request.headers)
  headers.set(clientIpHeader, clientIpOf(request))
  const forwarded = new Request(request.url, {
    method: request.method,
    headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
    signal: request.signal,
    // @ts-expect-error -- Node's fetch needs `duplex` to forward a streamed body; the DOM types lack it.
    duplex: 'half',
  })
  return getAuth().handler(forwarded)
}

export const Route = createFileRoute('/api/auth/$')({
  server: { handlers: { GET: handleAuthRequest, POST: handleAuthRequest } },
})
