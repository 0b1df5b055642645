import { describe, expect, it } from 'vitest'
import { planFeatures } from '#/lib/plan-text'
import { planById } from '#/lib/plans'
import { plansMarkdownTable } from '#/lib/plans-table'
import { overwriteGetLocale } from '#/paraglide/runtime'

describe('the files’ storage in the plans', () => {
  it('is a column of the docs’ plans table, in each language', () => {
    const english = plansMarkdownTable('en').split('\n')
    expect(english[0]).toMatch(/\| File storage \|$/)
    expect(english[2]).toMatch(/\| 100 MB \(5 MB a file\) \|$/)
    expect(plansMarkdownTable('zh')).toContain('| 10 GB（单个文件 25 MB） |')
  })

  it('is promised on each plan’s card', () => {
    overwriteGetLocale(() => 'en')
    expect(planFeatures(planById('free'))).toContain('100 MB of file storage, up to 5 MB a file')
    expect(planFeatures(planById('team'))).toContain('100 GB of file storage, up to 25 MB a file')
  })
})
