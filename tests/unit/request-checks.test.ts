import { describe, expect, it } from 'vitest'
import { offSiteRedirectError } from '#/server/auth/request-checks'

const appUrl = 'https://hatch.example.com'
const refused = { code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' }

describe('redirect targets sent to the auth API', () => {
  it('may be a path on this site or an absolute URL on its own origin', () => {
    expect(offSiteRedirectError({ callbackURL: '/en/console?tab=keys#top' }, undefined, appUrl)).toBeNull()
    expect(
      offSiteRedirectError({ redirectTo: 'https://hatch.example.com/en/reset-password' }, undefined, appUrl),
    ).toBeNull()
    expect(offSiteRedirectError(undefined, { callbackURL: '/zh/console', token: 't' }, appUrl)).toBeNull()
    expect(offSiteRedirectError({ email: 'a@b.c' }, undefined, appUrl)).toBeNull()
  })

  it('may not leave the site, in the body or in the query, under any of its names', () => {
    const offSite = [
      'https://evil.example/phish',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'https://hatch.example.com.evil.example/',
      'http://hatch.example.com/',
    ]
    for (const target of offSite) {
      for (const field of ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL', 'redirectTo']) {
        expect(offSiteRedirectError({ [field]: target }, undefined, appUrl), `${field}=${target}`).toEqual(refused)
        expect(offSiteRedirectError(undefined, { [field]: target }, appUrl), `?${field}=${target}`).toEqual(refused)
      }
    }
    expect(offSiteRedirectError({ callbackURL: 42 }, undefined, appUrl)).toEqual(refused)
  })
})
