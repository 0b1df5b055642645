import { describe, expect, it } from 'vitest'
import { redirectToLocalizedUrl } from '#/server/locale-redirect'

function request(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Request(`http://localhost:3000${path}`, { method, headers })
}

async function redirectTarget(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await redirectToLocalizedUrl(request(path, headers, method))
  if (!response) return null
  expect(response.status).toBe(307)
  return (
    new URL(response.headers.get('location') ?? '').pathname + new URL(response.headers.get('location') ?? '').search
  )
}

describe('a page request without a locale prefix', () => {
  it('goes to English when nothing says otherwise', async () => {
    expect(await redirectTarget('/')).toBe('/en/')
  })

  it('follows Accept-Language when there is no cookie', async () => {
    expect(await redirectTarget('/', { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' })).toBe('/zh/')
    expect(await redirectTarget('/docs', { 'accept-language': 'en-GB,en;q=0.9' })).toBe('/en/docs')
  })

  it('lets the lang cookie win over Accept-Language', async () => {
    expect(await redirectTarget('/', { cookie: 'lang=en', 'accept-language': 'zh-CN' })).toBe('/en/')
    expect(await redirectTarget('/sign-in', { cookie: 'theme=x; lang=zh', 'accept-language': 'en' })).toBe(
      '/zh/sign-in',
    )
  })

  it('ignores a cookie naming a language we do not have, without an error', async () => {
    expect(await redirectTarget('/', { cookie: 'lang=fr', 'accept-language': 'zh' })).toBe('/zh/')
    expect(await redirectTarget('/console', { cookie: 'lang=fr' })).toBe('/en/console')
    expect(await redirectTarget('/', { cookie: 'lang=; lang' })).toBe('/en/')
  })

  it('keeps the path and the query string', async () => {
    expect(await redirectTarget('/my-orders?page=2', { 'accept-language': 'zh' })).toBe('/zh/my-orders?page=2')
  })

  it('says the answer varies by language headers, so caches keep one copy per language', async () => {
    const response = await redirectToLocalizedUrl(request('/', { 'accept-language': 'zh' }))
    expect(response?.headers.get('vary')).toContain('Accept-Language')
  })
})

describe('requests that are never redirected', () => {
  it('leaves prefixed pages alone', async () => {
    expect(await redirectTarget('/en/')).toBeNull()
    expect(await redirectTarget('/zh/docs/a/b', { cookie: 'lang=en' })).toBeNull()
  })

  it('leaves /api, server functions and assets alone', async () => {
    for (const path of ['/api/health', '/api/trpc/system.status', '/_serverFn/abc', '/assets/index.js']) {
      expect(await redirectTarget(path, { 'accept-language': 'zh' }), path).toBeNull()
    }
  })

  it('leaves non-GET requests alone', async () => {
    expect(await redirectTarget('/', {}, 'POST')).toBeNull()
  })
})
