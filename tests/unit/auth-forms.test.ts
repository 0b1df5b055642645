import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signInSchema, signUpSchema } from '#/features/auth/schemas'
import { safeRedirectPath } from '#/lib/safe-redirect'

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message

describe('sign-in form rules', () => {
  it('wants an email or a username, and a password', () => {
    expect(firstMessage(signInSchema.safeParse({ identifier: ' ', password: 'x', rememberMe: true }))).toBe(
      'validation_email_required',
    )
    expect(firstMessage(signInSchema.safeParse({ identifier: 'ada@', password: 'x', rememberMe: true }))).toBe(
      'validation_email_invalid',
    )
    expect(firstMessage(signInSchema.safeParse({ identifier: 'ada', password: '', rememberMe: true }))).toBe(
      'validation_password_required',
    )
    expect(signInSchema.safeParse({ identifier: 'ada_l', password: 'x', rememberMe: false }).success).toBe(true)
  })
})

describe('sign-up form rules', () => {
  const valid = { name: 'Ada', email: 'ada@example.com', username: '', password: 'analytical1' }

  it('accepts a complete sign-up, with or without a username', () => {
    expect(signUpSchema.safeParse(valid).success).toBe(true)
    expect(signUpSchema.safeParse({ ...valid, username: 'ada.l' }).success).toBe(true)
  })

  it('says what is wrong with the password, in the spec order', () => {
    const message = (password: string) => firstMessage(signUpSchema.safeParse({ ...valid, password }))
    expect(message('')).toBe('validation_password_required')
    expect(message('a1')).toBe('validation_password_min')
    expect(message(`a1${'x'.repeat(127)}`)).toBe('validation_password_max')
    expect(message('onlyletters')).toBe('validation_password_letter_number')
    expect(message('12345678')).toBe('validation_password_letter_number')
  })

  it('requires a name and refuses a malformed username', () => {
    expect(firstMessage(signUpSchema.safeParse({ ...valid, name: '' }))).toBe('validation_required')
    expect(firstMessage(signUpSchema.safeParse({ ...valid, username: 'a b' }))).toBe('validation_username_invalid')
  })
})

describe('the redirect after signing in', () => {
  it('keeps paths on this site', () => {
    expect(safeRedirectPath('/en/console/account')).toBe('/en/console/account')
    expect(safeRedirectPath('/zh/docs?x=1#y')).toBe('/zh/docs?x=1#y')
  })

  it('ignores anything that could leave the site', () => {
    for (const attempt of [
      'https://evil.example',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/ok\u0000',
      // Paths that normalise into a protocol-relative URL (issue 26's probe).
      '/.//evil.example',
      '/..//evil.example',
      '/%2e//evil.example',
      '/a/..//evil.example',
      '/./\t/evil.example',
      'en/console',
      '',
      null,
      42,
    ]) {
      expect(safeRedirectPath(attempt), String(attempt)).toBeNull()
    }
  })

  it('property: whatever it keeps, a browser resolves on this site, and checking it again keeps it as it is', () => {
    const piece = fc.constantFrom(
      '/',
      '//',
      '.',
      '..',
      '\\',
      '%2e',
      '%2f',
      '%5c',
      '\t',
      '@',
      ':',
      'evil.example',
      '?',
      '#',
      'x',
    )
    const attempt = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 12 }).map((parts) => `/${parts.join('')}`),
    )
    fc.assert(
      fc.property(attempt, (value) => {
        const kept = safeRedirectPath(value)
        if (kept === null) return
        const site = 'https://hatch.example'
        expect(new URL(kept, site).origin, `${JSON.stringify(value)} → ${kept}`).toBe(site)
        expect(safeRedirectPath(kept)).toBe(kept)
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps an encoded path as a path on this site, never as a header or a host', () => {
    expect(safeRedirectPath('/%0d%0aLocation:evil')).toBe('/%0d%0aLocation:evil')
  })
})
