import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chosenEncoding, loadStaticFiles, type StaticFile, staticAnswer } from '../../scripts/static-files.ts'

const script = `export const greeting = ${JSON.stringify('hello '.repeat(200))}\n`
let dir: string
let files: Map<string, StaticFile>

const get = (file: StaticFile, headers: Record<string, string> = {}, method = 'GET') =>
  staticAnswer(file, { method, headers: new Headers(headers) }, { 'x-content-type-options': 'nosniff' })

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'hatch-static-'))
  mkdirSync(path.join(dir, 'assets'))
  writeFileSync(path.join(dir, 'assets/app-abc123.js'), script)
  // The build's own gzip copy (scripts/build.ts) is sent as it is, not made again.
  writeFileSync(path.join(dir, 'assets/app-abc123.js.gz'), gzipSync(script, { level: 1 }))
  writeFileSync(path.join(dir, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(100)}</svg>`)
  writeFileSync(path.join(dir, 'assets/font-x.woff2'), Buffer.alloc(2000, 7))
  files = await loadStaticFiles(dir)
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('static files held in memory', () => {
  it('holds each file under its URL path, and not the compressed copies as files of their own', () => {
    expect([...files.keys()].sort()).toEqual(['/assets/app-abc123.js', '/assets/font-x.woff2', '/favicon.svg'])
  })

  it('sends brotli, then gzip, then the plain bytes, as the browser accepts them', () => {
    const file = files.get('/assets/app-abc123.js') as StaticFile
    const br = get(file, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(script)
    const gzip = get(file, { 'accept-encoding': 'gzip, br;q=0' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.body as Buffer).toString()).toBe(script)
    const plain = get(file)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body?.toString()).toBe(script)
    expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(script)))
    for (const answer of [br, gzip, plain]) expect(answer.headers.vary).toBe('Accept-Encoding')
    expect(new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]).size, 'one ETag per form').toBe(3)
  })

  it('caches build assets for a year without revalidation, other files for an hour', () => {
    const script = get(files.get('/assets/app-abc123.js') as StaticFile)
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(script.headers['x-content-type-options'], 'the security headers come along').toBe('nosniff')
    const icon = get(files.get('/favicon.svg') as StaticFile, { 'accept-encoding': 'br' })
    expect(icon.headers['cache-control']).toBe('public, max-age=3600')
    expect(icon.headers['content-type']).toBe('image/svg+xml')
    expect(icon.headers['content-encoding'], 'compressed once at start-up').toBe('br')
  })

  it('answers 304 without a body when the browser already has that version', () => {
    const file = files.get('/favicon.svg') as StaticFile
    const first = get(file, { 'accept-encoding': 'br' })
    const again = get(file, { 'accept-encoding': 'br', 'if-none-match': `W/${first.headers.etag}` })
    expect(again.status).toBe(304)
    expect(again.body).toBeNull()
    expect(get(file, { 'if-none-match': '"something-else"' }).status).toBe(200)
    expect(
      get(file, { 'accept-encoding': 'br', 'if-none-match': '*' }).status,
      'any version, for a file that exists',
    ).toBe(304)
  })

  it('answers 304 only for the form it would send: another coding of the file is not what the client holds', () => {
    const file = files.get('/favicon.svg') as StaticFile
    const plainTag = get(file).headers.etag ?? ''
    const brotli = get(file, { 'accept-encoding': 'br', 'if-none-match': plainTag })
    expect(brotli.status).toBe(200)
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(get(file, { 'if-none-match': `"x", ${plainTag}` }).status).toBe(304)
  })

  it('sends for HEAD the headers GET sends, and no body', () => {
    const file = files.get('/favicon.svg') as StaticFile
    const requests: Record<string, string>[] = [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }]
    for (const headers of requests) {
      const answer = get(file, headers, 'HEAD')
      expect(answer.status).toBe(200)
      expect(answer.body).toBeNull()
      expect(answer.headers).toEqual(get(file, headers).headers)
      expect(Number(answer.headers['content-length'])).toBeGreaterThan(0)
    }
  })

  it('does not compress what is compressed already', () => {
    const font = files.get('/assets/font-x.woff2') as StaticFile
    expect(chosenEncoding('br, gzip', font)).toBeUndefined()
    expect(get(font, { 'accept-encoding': 'br' }).headers.vary).toBeUndefined()
    expect(get(font).headers['content-type']).toBe('font/woff2')
  })
})
