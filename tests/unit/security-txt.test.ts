import { describe, expect, it } from 'vitest'
import { securityTxt, vulnerabilityReportUrl } from '#/server/security-txt'

/** The fields of a security.txt, by name (RFC 9116 §2.3: "Name: value" lines). */
function fieldsOf(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>()
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z-]+): (.+)$/.exec(line)
    if (match?.[1] && match[2]) fields.set(match[1], [...(fields.get(match[1]) ?? []), match[2]])
  }
  return fields
}

describe('security.txt', () => {
  const now = new Date('2026-11-25T16:00:00.000Z')
  const text = securityTxt({
    appUrl: 'https://hatch.example.com',
    sourceRepositoryUrl: 'https://github.com/hatch-dev/hatch',
    now,
  })
  const fields = fieldsOf(text)

  it('tells a researcher where to report in private: the repository’s security advisory form', () => {
    expect(fields.get('Contact')).toEqual(['https://github.com/hatch-dev/hatch/security/advisories/new'])
  })

  it('expires about a year after it was served, in the Internet date format, and never a year or more', () => {
    const [expires] = fields.get('Expires') ?? []
    expect(expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    const days = (Date.parse(expires ?? '') - now.getTime()) / 86_400_000
    expect(days).toBeGreaterThan(300)
    expect(days).toBeLessThan(365)
  })

  it('names its languages, its own address and the policy page, all at the public URL', () => {
    expect(fields.get('Preferred-Languages')).toEqual(['en, zh'])
    expect(fields.get('Canonical')).toEqual(['https://hatch.example.com/.well-known/security.txt'])
    expect(fields.get('Policy')).toEqual(['https://hatch.example.com/en/docs/security'])
  })

  it('has exactly one Expires and one Preferred-Languages, and ends with a new line', () => {
    expect(fields.get('Expires')).toHaveLength(1)
    expect(fields.get('Preferred-Languages')).toHaveLength(1)
    expect(text.endsWith('\n')).toBe(true)
  })

  it('follows the repository setting, however it is written', () => {
    expect(vulnerabilityReportUrl('https://github.com/acme/starter/')).toBe(
      'https://github.com/acme/starter/security/advisories/new',
    )
    expect(vulnerabilityReportUrl('https://github.com/acme/starter.git')).toBe(
      'https://github.com/acme/starter/security/advisories/new',
    )
    // Elsewhere there is no advisory form to point at: the repository itself says how to reach its owners.
    expect(vulnerabilityReportUrl('https://gitlab.com/acme/starter')).toBe('https://gitlab.com/acme/starter')
  })
})
