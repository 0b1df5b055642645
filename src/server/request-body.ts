/**
 * A request's body of at most `maxBytes` (declared or streamed), read before anything is parsed: a client cannot make
 * the server hold a huge body. 'too-large' past the limit; empty when there is none.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array | 'too-large'> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) return 'too-large'
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      return 'too-large'
    }
    chunks.push(value)
  }
  return new Uint8Array(Buffer.concat(chunks))
}
