import { describe, expect, it } from 'vitest'
import { planById } from '#/lib/plans'
import { plansMarkdownTable } from '#/lib/plans-table'

describe('the docs plans table', () => {
  // The installed apps' limits (their plans.ts) follow as columns of their own; their tests check those.
  it('is read from the plan definition, in each language', () => {
    const english = plansMarkdownTable('en').split('\n')
    expect(english[0]).toMatch(/^\| Plan \| Monthly \| Yearly \| Members per organization \| AI requests per month \|/)
    expect(english[2]).toMatch(
      new RegExp(`^\\| Free \\| \\$0 / CN¥0 \\| \\$0 / CN¥0 \\| ${planById('free').limits.members} \\| 1,000 \\|`),
    )
    expect(english[3]).toContain('$19 / CN¥129')
    const chinese = plansMarkdownTable('zh')
    expect(chinese).toContain('| 专业版 | US$19 / ¥129 | US$190 / ¥1,290 | 10 | 50,000 |')
    expect(chinese).toContain('团队版（按席位）')
  })
})
