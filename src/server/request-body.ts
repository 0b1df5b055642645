import { createBodyTooLargeError, limitRequestBody } from 'srvx/body-limit'

// No imports of the app's own: the production server (scripts/serve.ts) loads this file with Node's type stripping,
// the app through its bundle.

/**
 * Whether an error is a body-size limit's: the one the production server puts on a streamed body (scripts/serve.ts,
 * srvx's `limitRequestBody`) or srvx's own. Matched by its documented code, not its class: the server and the app
 * are bundled apart, each with its own copy of srvx.
 */
export function isBodyTooLargeError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_BODY_TOO_LARGE'
}

/**
 * A request's body of at most `maxBytes` (declared or streamed), read before anything is parsed: a client cannot make
 * the server hold a huge body. 'too-large' past the limit, this one or the server's (a chunked body the server cut
 * off); empty when there is none.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array | 'too-large'> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) return 'too-large'
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>
    try {
      read = await reader.read()
    } catch (error) {
      if (isBodyTooLargeError(error)) return 'too-large'
      throw error
    }
    if (read.done) break
    size += read.value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      return 'too-large'
    }
    chunks.push(read.value)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/** A request's body as UTF-8 text, of at most `maxBytes` (see readBodyBytes). */
export async function readBodyText(request: Request, maxBytes: number): Promise<string | 'too-large'> {
  const bytes = await readBodyBytes(request, maxBytes)
  return bytes === 'too-large' ? bytes : new TextDecoder().decode(bytes)
}

/** The answer for a body past its limit, in the shape the tRPC client reads (`errors.REQUEST_TOO_LARGE`). */
export function bodyTooLargeAnswer(): Response {
  return Response.json({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' }, { status: 413 })
}

/**
 * Answers a request whose body may be at most `maxBytes`, whichever route reads it and however (text, JSON, a stream,
 * a library's own parser): a declared length past it at once with 413; a streamed (chunked) body errors once it passes
 * the limit, and the answer is then 413 whatever the route made of the error (a 500, or a 400 for a body it could not
 * parse). srvx's own wrapper keeps the request srvx made, with the client's address that rate limits count by (a copy
 * would lose it). `finish` dresses the limit's own 413 (the server's security headers).
 */
export async function answerWithinBodyLimit(
  request: Request,
  maxBytes: number,
  answer: (request: Request) => Response | Promise<Response>,
  finish: (refusal: Response) => Response = (refusal) => refusal,
): Promise<Response> {
  const declared = request.headers.get('content-length')
  if (declared !== null) return Number(declared) > maxBytes ? finish(bodyTooLargeAnswer()) : answer(request)
  // Without a declared length, only a chunked request has a body (a GET's or HEAD's is never read).
  if (!request.headers.get('transfer-encoding') || request.method === 'GET' || request.method === 'HEAD') {
    return answer(request)
  }
  let passedLimit = false
  const limited = limitRequestBody(request, maxBytes, {
    createError: (limit) => {
      passedLimit = true
      return createBodyTooLargeError(limit)
    },
  })
  let response: Response | undefined
  try {
    response = await answer(limited)
  } catch (error) {
    if (!passedLimit) throw error
  }
  if (response && !passedLimit) return response
  void response?.body?.cancel()
  return finish(bodyTooLargeAnswer())
}
