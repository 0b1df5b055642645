import { describe, expect, it } from 'vitest'
import { defaultAppSettings, siteSettingsInput } from '#/lib/site-settings'

const valid = {
  productName: 'Hatch',
  sourceRepositoryUrl: 'https://github.com/acme/app',
  defaultTheme: 'light',
  docsFooterNavigation: false,
  docsEditBranch: 'main',
  authEmailPassword: true,
  authUsername: true,
  authGithub: true,
  authGoogle: true,
  authGoogleOneTap: false,
  authGenericOauth: true,
  authMagicLink: true,
  authEmailOtp: true,
  authAnonymous: true,
  authPasskey: true,
  signUpOpen: true,
  emailVerificationRequired: false,
  analyticsTimeZone: 'UTC',
  apps: defaultAppSettings(),
}

describe('site settings validation', () => {
  it('accepts a complete, valid set and trims the product name', () => {
    expect(siteSettingsInput.parse({ ...valid, productName: '  Acme AI  ' }).productName).toBe('Acme AI')
  })

  it('rejects an empty or overlong product name', () => {
    expect(siteSettingsInput.safeParse({ ...valid, productName: '   ' }).success).toBe(false)
    expect(siteSettingsInput.safeParse({ ...valid, productName: 'x'.repeat(61) }).success).toBe(false)
  })

  it('only takes http(s) repository links, so no javascript: URL reaches the footer', () => {
    expect(siteSettingsInput.safeParse({ ...valid, sourceRepositoryUrl: 'javascript:alert(1)' }).success).toBe(false)
    expect(siteSettingsInput.safeParse({ ...valid, sourceRepositoryUrl: 'not a url' }).success).toBe(false)
    expect(siteSettingsInput.safeParse({ ...valid, sourceRepositoryUrl: 'http://git.local/x' }).success).toBe(true)
  })

  it('takes a branch name for edit links, nothing that could break out of the URL', () => {
    expect(siteSettingsInput.safeParse({ ...valid, docsEditBranch: 'release/1.0' }).success).toBe(true)
    expect(siteSettingsInput.safeParse({ ...valid, docsEditBranch: '../../evil' }).success).toBe(false)
    expect(siteSettingsInput.safeParse({ ...valid, docsEditBranch: 'a b' }).success).toBe(false)
  })

  it('takes IANA time zones for the dashboard, nothing else', () => {
    for (const zone of ['UTC', 'Asia/Shanghai', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) {
      expect(siteSettingsInput.safeParse({ ...valid, analyticsTimeZone: zone }).success, zone).toBe(true)
    }
    for (const zone of ['', 'Mars/Olympus_Mons', 'UTC; drop table users', '../etc/passwd']) {
      expect(siteSettingsInput.safeParse({ ...valid, analyticsTimeZone: zone }).success, zone).toBe(false)
    }
  })

  it('knows exactly three themes', () => {
    for (const theme of ['light', 'dark', 'system']) {
      expect(siteSettingsInput.safeParse({ ...valid, defaultTheme: theme }).success).toBe(true)
    }
    expect(siteSettingsInput.safeParse({ ...valid, defaultTheme: 'sepia' }).success).toBe(false)
  })
})
