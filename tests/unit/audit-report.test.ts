import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { type AllowedAdvisory, allowListProblems, judgeAudit } from '../../scripts/audit-report'

// A report written by hand after npm's documented `npm audit --json` format (auditReportVersion 2): a critical and a
// high advisory, a package that is vulnerable only through the high one, and a moderate advisory.
const report = readFileSync(path.join(import.meta.dirname, '../support/npm-audit-v2-report.json'), 'utf8')
const today = new Date('2026-11-25T12:00:00Z')

const allowTinyParser: AllowedAdvisory = {
  id: 'GHSA-dddd-eeee-ffff',
  package: 'tiny-parser',
  reason: 'No fixed release yet; Hatch parses only its own docs with it, never visitor input.',
  reviewed: '2026-11-20',
}

const idsOf = (advisories: { id: string }[]) => advisories.map((advisory) => advisory.id).sort()

describe('the dependency audit', () => {
  it('fails on every high or critical advisory, once each, and lists lower ones without failing', () => {
    const outcome = judgeAudit(report, [], today)
    if (outcome.kind !== 'checked') throw new Error('the report was not read')
    expect(idsOf(outcome.blocking)).toEqual(['GHSA-aaaa-bbbb-cccc', 'GHSA-dddd-eeee-ffff'])
    expect(outcome.blocking.find((advisory) => advisory.package === 'left-pad-utils')?.severity).toBe('critical')
    expect(idsOf(outcome.lower)).toEqual(['GHSA-gggg-hhhh-jjjj'])
  })

  it('lets a reviewed allow-list entry through, and only for the advisory and package it names', () => {
    const outcome = judgeAudit(report, [allowTinyParser], today)
    if (outcome.kind !== 'checked') throw new Error('the report was not read')
    expect(idsOf(outcome.allowed)).toEqual(['GHSA-dddd-eeee-ffff'])
    expect(idsOf(outcome.blocking)).toEqual(['GHSA-aaaa-bbbb-cccc'])
    const byUrl = judgeAudit(
      report,
      [{ ...allowTinyParser, id: 'https://github.com/advisories/GHSA-dddd-eeee-ffff' }],
      today,
    )
    expect(byUrl.kind === 'checked' && idsOf(byUrl.allowed)).toEqual(['GHSA-dddd-eeee-ffff'])
    const otherPackage = judgeAudit(report, [{ ...allowTinyParser, package: 'markdown-kit' }], today)
    expect(otherPackage.kind === 'checked' && idsOf(otherPackage.blocking)).toHaveLength(2)
  })

  it('an allowance whose review is over six months old no longer counts, and says so', () => {
    const outcome = judgeAudit(report, [{ ...allowTinyParser, reviewed: '2026-01-10' }], today)
    if (outcome.kind !== 'checked') throw new Error('the report was not read')
    expect(idsOf(outcome.blocking)).toContain('GHSA-dddd-eeee-ffff')
    expect(outcome.staleAllowances.join('\n')).toContain('review it again')
  })

  it('an allowance for an advisory no longer reported is pointed out for removal', () => {
    const clean = JSON.stringify({ auditReportVersion: 2, vulnerabilities: {}, metadata: {} })
    const outcome = judgeAudit(clean, [allowTinyParser], today)
    expect(outcome).toEqual({
      kind: 'checked',
      blocking: [],
      allowed: [],
      lower: [],
      staleAllowances: [expect.stringContaining('no longer reported')],
    })
  })

  it('a registry without the audit endpoint means nothing was checked, not a pass or a failure', () => {
    const refused = JSON.stringify({
      message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
      method: 'POST',
      statusCode: 405,
      body: '',
      error: { summary: '', detail: '' },
    })
    expect(judgeAudit(refused, [], today)).toEqual({
      kind: 'unavailable',
      reason: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
    })
  })

  it('output that is not a report is an error, never a silent pass', () => {
    expect(() => judgeAudit('npm ERR! something broke', [], today)).toThrow(/did not print a JSON report/)
  })

  it('an allow-list entry must say what, why and when', () => {
    expect(allowListProblems([allowTinyParser])).toEqual([])
    expect(allowListProblems([{ id: 'GHSA-dddd-eeee-ffff', package: 'tiny-parser', reviewed: 'last week' }])).toEqual([
      'advisories[0].reason is missing',
      'advisories[0].reviewed must be a date (YYYY-MM-DD)',
    ])
    expect(allowListProblems({})).toEqual(['"advisories" must be a list'])
  })

  it('the project’s own allow-list is valid', () => {
    const file = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../audit-allowlist.json'), 'utf8'))
    expect(allowListProblems(file.advisories)).toEqual([])
  })
})
