import { describe, expect, it } from 'vitest'
import { plansMarkdownTable } from '#/features/docs/plans-table-rows'
import { planById } from '#/lib/plans'

describe('the docs plans table', () => {
  it('is read from the plan definition, in each language', () => {
    const english = plansMarkdownTable('en').split('\n')
    expect(english[0]).toBe(
      '| Plan | Monthly | Yearly | Books per organization | Members per organization | AI requests per month | File storage |',
    )
    expect(english[2]).toBe(
      `| Free | $0 / CN¥0 | $0 / CN¥0 | ${planById('free').limits.books} | 3 | 1,000 | 100 MB (5 MB a file) |`,
    )
    expect(english[3]).toContain('$19 / CN¥129')
    const chinese = plansMarkdownTable('zh')
    expect(chinese).toContain(
      '| 专业版 | US$19 / ¥129 | US$190 / ¥1,290 | 不限 | 10 | 50,000 | 10 GB（单个文件 25 MB） |',
    )
    expect(chinese).toContain('团队版（按席位）')
  })
})
