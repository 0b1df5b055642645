import { describe, expect, it } from 'vitest'
import { PageCache } from '#/server/page-cache'

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
