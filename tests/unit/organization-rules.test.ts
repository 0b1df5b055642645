import { describe, expect, it } from 'vitest'
import { isValidRoleName, isValidSlug, slugify } from '#/features/organizations/organization-names'
import { organizationFormSchema } from '#/features/organizations/organization-rules'
import { organizationRequestError } from '#/features/organizations/server/organization-checks'

describe('organization slugs', () => {
  it('derives a slug from a name', () => {
    expect(slugify('Acme Inc.')).toBe('acme-inc')
    expect(slugify('  Crème Brûlée  Café ')).toBe('creme-brulee-cafe')
    expect(slugify('数据团队')).toBe('')
    expect(slugify('a'.repeat(80))).toHaveLength(48)
  })

  it('accepts 3 to 48 lowercase letters, digits and single hyphens', () => {
    for (const slug of ['acme', 'acme-2', 'a1b']) expect(isValidSlug(slug), slug).toBe(true)
    for (const slug of ['ab', 'Acme', 'a b', 'x--y', '-acme', 'acme-', 'a'.repeat(49), 'ac_me']) {
      expect(isValidSlug(slug), slug).toBe(false)
    }
  })

  it('validates the organization form with translatable messages', () => {
    const result = organizationFormSchema.safeParse({ name: '', slug: 'A B' })
    expect(result.success).toBe(false)
    const messages = Object.fromEntries(result.error?.issues.map((issue) => [issue.path[0], issue.message]) ?? [])
    expect(messages).toEqual({
      name: 'validation_required',
      slug: 'validation_slug_invalid',
    })
  })
})

describe('custom role names', () => {
  it('are lowercase words with hyphens, never a comma (roles are stored comma-separated)', () => {
    expect(isValidRoleName('editor')).toBe(true)
    expect(isValidRoleName('billing-clerk2')).toBe(true)
    for (const name of ['', 'Editor', 'a,b', 'two words', '1st', 'x'.repeat(33)]) {
      expect(isValidRoleName(name), name).toBe(false)
    }
  })
})

describe('organization requests the server refuses before Better Auth stores them', () => {
  const appUrl = 'https://app.example'
  const uploadedLogo = `${appUrl}/api/files/logos/org_1/0123456789abcdef-256.webp`
  const cases: [string, unknown, string | null][] = [
    ['/organization/create', { name: 'Acme', slug: 'acme' }, null],
    ['/organization/create', { name: ' ', slug: 'acme' }, 'ORGANIZATION_NAME_REQUIRED'],
    ['/organization/create', { name: 'x'.repeat(81), slug: 'acme' }, 'ORGANIZATION_NAME_TOO_LONG'],
    ['/organization/create', { name: 'Acme', slug: 'Acme Inc' }, 'ORGANIZATION_SLUG_INVALID'],
    [
      '/organization/create',
      { name: 'Acme', slug: 'acme', logo: 'data:image/png;base64,AAAA' },
      'ORGANIZATION_LOGO_INVALID',
    ],
    // Only a logo this site stored from an upload: no tracker, and no picture of a person passed off as a logo.
    ['/organization/create', { name: 'Acme', slug: 'acme', logo: uploadedLogo }, null],
    ['/organization/update', { data: { logo: uploadedLogo } }, null],
    ['/organization/update', { data: { logo: null } }, null],
    ['/organization/update', { data: { logo: 'https://tracker.example/pixel.png' } }, 'ORGANIZATION_LOGO_INVALID'],
    [
      '/organization/update',
      { data: { logo: uploadedLogo.replace(appUrl, 'https://evil.example') } },
      'ORGANIZATION_LOGO_INVALID',
    ],
    [
      '/organization/update',
      { data: { logo: uploadedLogo.replace('/logos/', '/avatars/') } },
      'ORGANIZATION_LOGO_INVALID',
    ],
    ['/organization/update', { data: { logo: `${uploadedLogo}?x=1` } }, 'ORGANIZATION_LOGO_INVALID'],
    ['/organization/update', { data: { logo: 42 } }, 'ORGANIZATION_LOGO_INVALID'],
    ['/organization/create', { name: 'Acme', slug: 'acme', userId: 'someone-else' }, 'USER_ID_NOT_ALLOWED'],
    ['/organization/update', { data: { slug: 'ok-slug' } }, null],
    ['/organization/update', { data: { name: 42 } }, 'ORGANIZATION_NAME_REQUIRED'],
    ['/organization/create-role', { role: 'editor', permission: { team: ['update'] } }, null],
    ['/organization/create-role', { role: 'a,b', permission: {} }, 'ROLE_NAME_INVALID'],
    ['/organization/create-role', { role: 'editor', permission: { team: ['fly'] } }, 'PERMISSION_INVALID'],
    ['/organization/create-role', { role: 'editor', permission: { spaceship: ['read'] } }, 'PERMISSION_INVALID'],
    [
      '/organization/update-role',
      { roleName: 'editor', data: { permission: { ac: ['read', 'x'] } } },
      'PERMISSION_INVALID',
    ],
    ['/organization/invite-member', { email: 'new@example.com', role: 'member', locale: 'zh' }, null],
    ['/organization/invite-member', { email: 'not-an-address', role: 'member' }, 'INVALID_EMAIL'],
    ['/organization/invite-member', { email: 'new@example.com', role: 'member', locale: 'fr' }, 'INVALID_LOCALE'],
    ['/organization/create-team', { name: '' }, 'TEAM_NAME_REQUIRED'],
    ['/organization/update-team', { teamId: 't', data: { name: 'y'.repeat(61) } }, 'TEAM_NAME_TOO_LONG'],
    ['/sign-up/email', { name: '' }, null],
  ]
  it.each(cases)('%s %j → %s', (path, body, code) => {
    expect(organizationRequestError(path, body, appUrl)?.code ?? null).toBe(code)
  })
})
