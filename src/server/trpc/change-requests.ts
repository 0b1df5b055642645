import { requestBodyBytesMax } from '#/lib/request-body-limit'

/**
 * Why a tRPC change (a POST) must be refused before it runs, or null when it may run. The app's own pages send JSON
 * with their Origin; a page on another site can make a browser send a cookie-carrying form or text POST without
 * asking first (no CORS preflight), so changes accept JSON only, and a change that carries a cookie must come from a
 * trusted origin, the way Better Auth checks its own endpoints. Callers with an API key and no cookie (scripts,
 * agents) need no Origin: nothing of a browser's is at stake.
 */
export function changeRefusal(
  request: Request,
  trustedOrigins: readonly string[],
): { status: number; code: string; message: string } | null {
  if (request.method !== 'POST') return null
  // Refused before it is read, with a code the page translates (the server cuts longer bodies off at the same size).
  if (Number(request.headers.get('content-length') ?? 0) > requestBodyBytesMax) {
    return { status: 413, code: 'REQUEST_TOO_LARGE', message: 'The request is larger than 1 MB' }
  }
  const contentType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()
  if (contentType !== 'application/json') {
    return {
      status: 415,
      code: 'JSON_BODY_REQUIRED',
      message: 'Changes are sent as JSON (Content-Type: application/json)',
    }
  }
  if (!request.headers.has('cookie')) return null
  const origin = request.headers.get('origin')
  if (!origin || origin === 'null') {
    return { status: 403, code: 'MISSING_OR_NULL_ORIGIN', message: 'Missing or null Origin' }
  }
  return trustedOrigins.includes(origin) ? null : { status: 403, code: 'INVALID_ORIGIN', message: 'Invalid origin' }
}

/** A refusal in tRPC's own error shape (superjson-wrapped), so the app's client reads its code like any other. */
export function changeRefusalResponse(refusal: { status: number; code: string; message: string }): Response {
  const trpcCode =
    refusal.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : refusal.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'FORBIDDEN'
  return Response.json(
    {
      error: {
        json: {
          message: refusal.message,
          code: refusal.status === 403 ? -32003 : -32600,
          data: { code: trpcCode, httpStatus: refusal.status, appCode: refusal.code },
        },
      },
    },
    { status: refusal.status, headers: { 'Cache-Control': 'private, no-store' } },
  )
}
