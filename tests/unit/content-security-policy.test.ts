import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  currentRenderNonce,
  policyWithHashes,
  policyWithNonce,
  renderWithNonce,
} from '#/server/content-security-policy'
import { PageCache } from '#/server/page-cache'

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

describe('the script policy', () => {
  it('gives each render its own nonce, visible only inside that render', async () => {
    const seen = await Promise.all([
      renderWithNonce(async (nonce) => [nonce, currentRenderNonce()]),
      renderWithNonce(async (nonce) => [nonce, currentRenderNonce()]),
    ])
    expect(seen[0]?.[0]).toBe(seen[0]?.[1])
    expect(seen[0]?.[0]).not.toBe(seen[1]?.[0])
    expect(Buffer.from(seen[0]?.[0] ?? '', 'base64')).toHaveLength(16)
    expect(currentRenderNonce()).toBeUndefined()
    expect(policyWithNonce('abc', { googleOneTap: false, fromApps: [] })).toMatch(
      /^script-src 'self' 'nonce-abc'; frame-ancestors/,
    )
  })

  it('allows a kept page’s inline scripts by the hash of their exact text, and nothing else inline', () => {
    const theme = 'document.documentElement.classList.add("dark")'
    const state = '$_TSR={"a":"中文"}'
    const html = `<head><script>${theme}</script><script type="module" src="/assets/a.js"></script></head><body><script nonce="x">${state}</script><script>${theme}</script></body>`
    const policy = policyWithHashes(html, { googleOneTap: false, fromApps: [] })
    const sources = /script-src ([^;]+)/.exec(policy)?.[1]?.split(' ')
    expect(sources).toEqual(["'self'", sha256(theme), sha256(state)])
    expect(policyWithHashes(html, { googleOneTap: true, fromApps: [] })).toContain(
      'https://accounts.google.com/gsi/client',
    )
    expect(policyWithHashes(html, { googleOneTap: false, fromApps: [] })).not.toContain('https://')
    expect(policyWithNonce('abc', { googleOneTap: false, fromApps: ['https://cdn.paddle.com'] })).toMatch(
      /^script-src 'self' 'nonce-abc' https:\/\/cdn\.paddle\.com; /,
    )
  })

  it('is added to HTML the page cache keeps, not to other text', async () => {
    const cache = new PageCache(10, (html) => [
      ['content-security-policy', policyWithHashes(html, { googleOneTap: false, fromApps: [] })],
    ])
    const page = await cache.serve(
      '/en/',
      async () => new Response('<script>go()</script>', { headers: { 'content-type': 'text/html' } }),
    )
    expect(page.headers.get('content-security-policy')).toContain(sha256('go()'))
    const text = await cache.serve(
      '/llms.txt',
      async () => new Response('<script>go()</script>', { headers: { 'content-type': 'text/plain' } }),
    )
    expect(text.headers.get('content-security-policy')).toBeNull()
    const missing = await cache.serve(
      '/en/docs/nowhere',
      async () =>
        new Response('<script>notFound()</script>', { status: 404, headers: { 'content-type': 'text/html' } }),
    )
    expect(missing.status, 'a page that is not kept').toBe(404)
    expect(missing.headers.get('content-security-policy'), 'still says which scripts may run').toContain(
      sha256('notFound()'),
    )
    expect(await missing.text()).toBe('<script>notFound()</script>')
  })
})
