import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { chosenEncoding, compressedAnswer } from '#/server/compression'

const json = JSON.stringify({
  items: Array.from({ length: 200 }, (_, index) => ({ id: index, name: `Member ${index}` })),
})
const request = (encoding: string, method = 'GET') =>
  new Request('http://localhost/api/trpc/organizations.members', { method, headers: { 'accept-encoding': encoding } })
const answer = (body: string, type = 'application/json', headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': type, ...headers } })

describe('compression of app answers', () => {
  it('sends brotli when accepted, else gzip, with the same bytes inside', async () => {
    const br = await compressedAnswer(request('gzip, br'), answer(json))
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    const brBytes = Buffer.from(await br.arrayBuffer())
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.byteLength)
    expect(brotliDecompressSync(brBytes).toString()).toBe(json)
    const gz = await compressedAnswer(request('gzip'), answer(json))
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(json)
  })

  it('leaves alone what is small, not text, already encoded, partial, or for a client that accepts neither', async () => {
    const untouched = async (response: Response, from = request('br')) =>
      (await compressedAnswer(from, response)).headers.get('content-encoding')
    expect(await untouched(answer('{"ok":true}'))).toBeNull()
    expect(await untouched(answer(json, 'image/png'))).toBeNull()
    expect(await untouched(answer(json, 'application/json', { 'content-encoding': 'gzip' }))).toBe('gzip')
    expect(await untouched(new Response(json, { status: 206, headers: { 'content-type': 'text/plain' } }))).toBeNull()
    expect(await untouched(answer(json), request('identity'))).toBeNull()
    expect(await untouched(new Response(null, { headers: { 'content-type': 'text/html' } }))).toBeNull()
  })

  it("answers a HEAD with the headers GET's answer has: its encoding, Vary and length", async () => {
    const get = await compressedAnswer(request('gzip, br'), answer(json))
    const head = await compressedAnswer(request('gzip, br', 'HEAD'), answer(json))
    for (const name of ['content-encoding', 'vary', 'content-length', 'content-type']) {
      expect(head.headers.get(name), name).toBe(get.headers.get(name))
    }
  })

  it('honours what the client refuses with q=0', async () => {
    expect(chosenEncoding('gzip, deflate, br')).toBe('br')
    expect(chosenEncoding('br;q=0, gzip')).toBe('gzip')
    expect(chosenEncoding('BR;Q=0, GZIP;q=0.5')).toBe('gzip')
    expect(chosenEncoding('br;q=0, gzip;q=0')).toBeUndefined()
    expect(chosenEncoding('*')).toBe('br')
    expect(chosenEncoding('br;q=0, *')).toBe('gzip')
    expect(chosenEncoding('*;q=0')).toBeUndefined()
    expect(chosenEncoding('identity')).toBeUndefined()
    expect(chosenEncoding('')).toBeUndefined()
    expect(chosenEncoding(null)).toBeUndefined()
    const refused = await compressedAnswer(request('br;q=0, gzip;q=0'), answer(json))
    expect(refused.headers.get('content-encoding')).toBeNull()
    expect(await refused.text()).toBe(json)
  })
})
