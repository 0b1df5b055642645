import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { withRequestId } from '#/server/log'
import { isCompleteAnswer, PageCache, withoutRenderTimes } from '#/server/page-cache'

const html = (text: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'content-type': 'text/html', ...headers } })

describe('the page cache', () => {
  it('renders once and serves the same bytes and headers again', async () => {
    const cache = new PageCache(10)
    let renders = 0
    const render = async () => html(`page ${++renders}`)
    const first = await cache.serve('/en/docs|1', render)
    const second = await cache.serve('/en/docs|1', render)
    expect(await first.text()).toBe('page 1')
    expect(first.headers.get('x-cache')).toBe('miss')
    expect(await second.text()).toBe('page 1')
    expect(second.headers.get('x-cache')).toBe('hit')
    expect(second.headers.get('content-type')).toBe('text/html')
    expect(renders).toBe(1)
  })

  it('shares one render between requests that arrive together', async () => {
    const cache = new PageCache(10)
    let renders = 0
    const render = async () => {
      renders++
      await new Promise((resolve) => setTimeout(resolve, 20))
      return html('slow page')
    }
    const answers = await Promise.all([1, 2, 3].map(() => cache.serve('/zh/docs|1', render)))
    expect(await Promise.all(answers.map((answer) => answer.text()))).toEqual(['slow page', 'slow page', 'slow page'])
    expect(renders).toBe(1)
  })

  it('keeps no error page and no answer that sets a cookie', async () => {
    const cache = new PageCache(10)
    let renders = 0
    const missing = async () => html(`missing ${++renders}`, 404)
    expect((await cache.serve('/en/docs/x|1', missing)).status).toBe(404)
    expect(await (await cache.serve('/en/docs/x|1', missing)).text()).toBe('missing 2')
    const personal = async () => html(`personal ${++renders}`, 200, { 'set-cookie': 'a=b' })
    await cache.serve('/en/docs/y|1', personal)
    expect(await (await cache.serve('/en/docs/y|1', personal)).text()).toBe('personal 4')
    expect(cache.size).toBe(0)
  })

  it('renders again when the key changes, and forgets the least recently used page when full', async () => {
    const cache = new PageCache(2)
    let renders = 0
    const render = async () => html(`render ${++renders}`)
    await cache.serve('a|1', render)
    await cache.serve('b|1', render)
    await cache.serve('a|1', render) // a is now the most recently used
    await cache.serve('c|1', render) // b goes
    expect(await (await cache.serve('a|1', render)).text()).toBe('render 1')
    expect(await (await cache.serve('b|1', render)).text()).toBe('render 4')
    expect(await (await cache.serve('a|2', render)).text()).toBe('render 5')
  })
})

describe('what the page cache answers with', () => {
  const request = (headers: Record<string, string>) => new Request('http://hatch.test/en/', { headers })
  const page = 'A page that every visitor sees the same. '.repeat(50)

  it('sends brotli or gzip as the client accepts, the same page every time', async () => {
    const cache = new PageCache(10)
    const render = async () => html(page)
    const brotli = await cache.serve('/en/|1', render, request({ 'accept-encoding': 'gzip, deflate, br' }))
    expect(brotli.headers.get('content-encoding')).toBe('br')
    expect(brotli.headers.get('vary')).toBe('Accept-Encoding')
    expect(Number(brotli.headers.get('content-length'))).toBeLessThan(page.length / 5)
    expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString()).toBe(page)
    const gzip = await cache.serve('/en/|1', render, request({ 'accept-encoding': 'gzip' }))
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(page)
    const plain = await cache.serve('/en/|1', render, request({}))
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(page)
    const refused = await cache.serve('/en/|1', render, request({ 'accept-encoding': 'br;q=0, gzip;q=0' }))
    expect(refused.headers.get('content-encoding'), 'codings refused with q=0').toBeNull()
    expect(await refused.text()).toBe(page)
    // The kept bytes are shared by every answer: reading one leaves the next intact.
    expect(await (await cache.serve('/en/|1', render, request({}))).text()).toBe(page)
  })

  it('answers 304 to a client that has the page already, and 200 once the page changed', async () => {
    const cache = new PageCache(10)
    let version = 1
    const render = async () => html(`${page} v${version}`)
    const first = await cache.serve('/en/|1', render, request({}))
    const etag = first.headers.get('etag') ?? ''
    expect(etag).toMatch(/^"[\w-]+"$/)
    expect(first.headers.get('cache-control')).toBe('public, no-cache')
    const again = await cache.serve('/en/|1', render, request({ 'if-none-match': `W/${etag}` }))
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    version = 2
    const changed = await cache.serve('/en/|2', render, request({ 'if-none-match': etag }))
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(await changed.text()).toContain('v2')
  })

  it("leaves complete: the server's own headers where the page sets none, and the request's id", async () => {
    const everyAnswer: [string, string][] = [
      ['X-Frame-Options', 'DENY'],
      ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ]
    const cache = new PageCache(
      10,
      () => [['Content-Security-Policy', "script-src 'self'"]],
      () => everyAnswer,
    )
    const render = async () => html(page, 200, { 'referrer-policy': 'no-referrer' })
    const answers = await withRequestId('request-one', async () => [
      await cache.serve('/en/|1', render, request({ 'accept-encoding': 'br' })),
      await cache.serve('/en/|1', render, request({})),
    ])
    for (const answer of answers) {
      expect(isCompleteAnswer(answer), 'the entry sends it as it is').toBe(true)
      expect(answer.headers.get('x-frame-options')).toBe('DENY')
      expect(answer.headers.get('referrer-policy'), "the page's own choice stays").toBe('no-referrer')
      expect(answer.headers.get('content-security-policy')).toBe("script-src 'self'")
      expect(answer.headers.get('x-request-id')).toBe('request-one')
    }
    const notModified = await withRequestId('request-two', () =>
      cache.serve(
        '/en/|1',
        render,
        request({ 'accept-encoding': 'br', 'if-none-match': answers[0]?.headers.get('etag') ?? '' }),
      ),
    )
    expect(notModified.status).toBe(304)
    expect(notModified.headers.get('x-frame-options')).toBe('DENY')
    expect(notModified.headers.get('x-request-id')).toBe('request-two')
    expect(notModified.headers.get('content-length')).toBeNull()
    expect(isCompleteAnswer(html(page)), 'any other answer gets its headers on the way out').toBe(false)
  })

  it('gives each coding its own ETag, from its bytes, and answers 304 only for the one it would send', async () => {
    const cache = new PageCache(10)
    const render = async () => html(page)
    const tags = new Map<string, string>()
    for (const encoding of ['br', 'gzip', 'identity']) {
      const answer = await cache.serve('/en/|1', render, request({ 'accept-encoding': encoding }))
      tags.set(encoding, answer.headers.get('etag') ?? '')
    }
    expect(new Set(tags.values()).size, 'one ETag per representation').toBe(3)
    const elsewhere = new PageCache(10)
    const sameTag = await elsewhere.serve('/en/|7', render, request({ 'accept-encoding': 'br' }))
    expect(sameTag.headers.get('etag'), 'another process, the same bytes').toBe(tags.get('br'))
    const otherCoding = await cache.serve(
      '/en/|1',
      render,
      request({ 'accept-encoding': 'br', 'if-none-match': tags.get('gzip') ?? '' }),
    )
    expect(otherCoding.status).toBe(200)
    const notModified = await cache.serve(
      '/en/|1',
      render,
      request({ 'accept-encoding': 'gzip', 'if-none-match': `"x", ${tags.get('gzip')}` }),
    )
    expect(notModified.status).toBe(304)
    expect(notModified.headers.get('etag')).toBe(tags.get('gzip'))
  })

  it('answers If-None-Match: * with 304, the page existing', async () => {
    const cache = new PageCache(10)
    const answer = await cache.serve('/en/|1', async () => html(page), request({ 'if-none-match': '*' }))
    expect(answer.status).toBe(304)
    expect(await answer.text()).toBe('')
  })

  it("answers a HEAD with GET's headers, its length included, and no body", async () => {
    const cache = new PageCache(10, () => [['Content-Security-Policy', "script-src 'self'"]])
    const render = async () => html(page)
    await cache.serve('/en/|1', render) // kept: every answer below is a hit
    for (const encoding of ['br', 'gzip', 'identity']) {
      const get = await cache.serve('/en/|1', render, request({ 'accept-encoding': encoding }))
      const head = await cache.serve(
        '/en/|1',
        render,
        new Request('http://hatch.test/en/', { method: 'HEAD', headers: { 'accept-encoding': encoding } }),
      )
      expect([...head.headers]).toEqual([...get.headers])
      expect(head.body).toBeNull()
    }
  })

  it('writes the same bytes for one page whenever it was rendered: the hydration data carries no render time', async () => {
    const renderedAt = (time: number) =>
      `<script>$_TSR.router=($R=>$R[0]={matches:$R[12]=[$R[13]={i:"__root__#",u:${time},s:"success"}],` +
      `dehydratedData:{query:{initial:[{dehydratedAt:${time + 1},state:{data:$R[14],dataUpdateCount:1,` +
      `dataUpdatedAt:${time},error:null,errorUpdateCount:0,errorUpdatedAt:0}}]}}})</script><p>u:1796419600000</p>`
    expect(withoutRenderTimes(renderedAt(1796419684779))).toBe(withoutRenderTimes(renderedAt(1796419738486)))
    expect(withoutRenderTimes(renderedAt(1796419684779)), 'the text of the page stays').toContain(
      '<p>u:1796419600000</p>',
    )
    const tagOf = async (time: number) =>
      (await new PageCache(1).serve('/en/|1', async () => html(renderedAt(time)), request({}))).headers.get('etag')
    expect(await tagOf(1796419684779)).toBe(await tagOf(1796419738486))
  })
})
