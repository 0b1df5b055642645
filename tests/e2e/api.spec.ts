import { expect, test } from '@playwright/test'

test.describe('HTTP API of the running server', () => {
  test('GET /api/health is 200 after a database round trip', async ({ request }) => {
    const response = await request.get('/api/health')
    expect(response.status()).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
  })

  test('an unknown /api path is a JSON 404, not a page redirect', async ({ request }) => {
    const response = await request.get('/api/no-such-thing', { maxRedirects: 0 })
    expect(response.status()).toBe(404)
    expect((await response.json()) as object).toMatchObject({ error: 'NOT_FOUND' })
  })

  test('tRPC answers an unknown procedure with NOT_FOUND', async ({ request }) => {
    const response = await request.get('/api/trpc/x')
    expect(response.status()).toBe(404)
    const body = (await response.json()) as { error: { json: { message: string } } }
    expect(body.error.json.message).toBe('No "query"-procedure on path "x"')
  })

  test('a missing asset is a plain 404', async ({ request }) => {
    const response = await request.get('/assets/missing.js', { maxRedirects: 0 })
    expect(response.status()).toBe(404)
  })

  test('an unprefixed page redirects to its localized URL', async ({ request }) => {
    const response = await request.get('/forgot-password', {
      maxRedirects: 0,
      headers: { 'accept-language': 'zh-CN' },
    })
    expect(response.status()).toBe(307)
    expect(response.headers().location).toMatch(/\/zh\/forgot-password$/)
  })
})
