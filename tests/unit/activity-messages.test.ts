import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activityActions } from '#/features/organizations/server/organization-activity'

const load = (locale: string) =>
  JSON.parse(readFileSync(path.resolve('messages', `${locale}.json`), 'utf8')) as Record<string, string>

describe('the activity log', () => {
  it('has a sentence for every recorded action, in English and Chinese, naming who did it', () => {
    for (const locale of ['en', 'zh']) {
      const messages = load(locale)
      const missing = activityActions.filter((action) => !messages[`activity_${action}`]?.includes('{actor}'))
      expect(missing, locale).toEqual([])
    }
  })

  it('reads every action in the log component, so a new action cannot show as a bare code', () => {
    const component = readFileSync(path.resolve('src/features/organizations/components/activity-log.tsx'), 'utf8')
    const unread = activityActions.filter((action) => !component.includes(`m.activity_${action}(`))
    expect(unread).toEqual([])
  })
})
