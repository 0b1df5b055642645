import { describe, expect, it } from 'vitest'
import { cacheControlFor, isPersonalPath, personalCacheControl, withCacheControl } from '#/server/cache-control'

const answerTo = (path: string, headers: Record<string, string> = {}) =>
  withCacheControl(new Request(`http://localhost:3000${path}`), new Response('body', { headers }))

describe('what caches may keep', () => {
  it('one visitor’s pages are never kept by a proxy or CDN', () => {
    for (const path of [
      '/en/console',
      '/zh/console/users/u_42',
      '/en/console/organization/members?page=2',
      '/en/sign-in?redirect=%2Fen%2Fconsole',
      '/zh/sign-up',
      '/en/forgot-password',
      '/en/reset-password?token=abc',
      '/en/magic-link',
      '/en/two-factor',
      '/en/verify-email',
      '/en/accept-invitation/inv_1',
      '/console',
    ]) {
      // Even a page that asked to be kept for everyone: the path decides.
      expect(cacheControlFor(new URL(path, 'http://localhost').pathname, 'public, max-age=600'), path).toBe(
        personalCacheControl,
      )
    }
  })

  it('API answers written for one caller are never kept', () => {
    for (const path of [
      '/api/trpc/account.me',
      '/api/trpc/organizations.members,organizations.full?batch=1',
      '/api/auth/get-session',
      '/api/auth/sign-in/email',
      '/api/mcp',
      '/api/ask-docs',
    ]) {
      expect(cacheControlFor(new URL(path, 'http://localhost').pathname, 'public, max-age=600'), path).toBe(
        personalCacheControl,
      )
    }
  })

  it('a weaker policy on a personal answer is replaced; one that already forbids keeping stays', () => {
    expect(cacheControlFor('/api/auth/get-session', 'no-store')).toBe(personalCacheControl)
    expect(cacheControlFor('/en/console', 'public, max-age=600')).toBe(personalCacheControl)
    expect(cacheControlFor('/api/mcp', 'private, max-age=60')).toBe(personalCacheControl)
    expect(cacheControlFor('/api/trpc/account.me', 'No-Store,  Private')).toBeUndefined()
  })

  it('pages kept for everyone, static files and the analytics script keep their own caching', () => {
    expect(answerTo('/en/', { 'cache-control': 'public, no-cache' }).headers.get('cache-control')).toBe(
      'public, no-cache',
    )
    expect(answerTo('/en/docs/billing', { 'cache-control': 'public, no-cache' }).headers.get('cache-control')).toBe(
      'public, no-cache',
    )
    expect(
      answerTo('/assets/app-abc.js', { 'cache-control': 'max-age=31536000, immutable' }).headers.get('cache-control'),
    ).toBe('max-age=31536000, immutable')
    expect(answerTo('/api/insights.js', { 'cache-control': 'public, max-age=3600' }).headers.get('cache-control')).toBe(
      'public, max-age=3600',
    )
    expect(answerTo('/api/health', { 'cache-control': 'no-store' }).headers.get('cache-control')).toBe('no-store')
  })

  it('an answer that states no policy was rendered for its request, so it is kept by nobody', () => {
    expect(answerTo('/en/docs/billing?from=search').headers.get('cache-control')).toBe(personalCacheControl)
    expect(answerTo('/en/no-such-page').headers.get('cache-control')).toBe(personalCacheControl)
  })

  it('names only the areas it means: look-alike paths are not personal', () => {
    expect(isPersonalPath('/en/docs/console')).toBe(false)
    expect(isPersonalPath('/en/consoles')).toBe(false)
    expect(isPersonalPath('/api/authors')).toBe(false)
    expect(isPersonalPath('/api/search')).toBe(false)
    expect(isPersonalPath('/en/docs/sign-in')).toBe(false)
  })

  it('copies an answer whose headers cannot change (a redirect) and keeps its status and target', () => {
    const redirect = withCacheControl(
      new Request('http://localhost:3000/console'),
      Response.redirect('http://localhost:3000/en/console', 307),
    )
    expect(redirect.status).toBe(307)
    expect(redirect.headers.get('location')).toBe('http://localhost:3000/en/console')
    expect(redirect.headers.get('cache-control')).toBe(personalCacheControl)
  })
})
