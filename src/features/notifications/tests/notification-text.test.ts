import { describe, expect, it } from 'vitest'
import { notificationText } from '#/features/notifications/notification-text'
import { allNoticeKinds } from '#/notice-kinds.gen'

describe('notification text', () => {
  it('writes the day a subscription ends as people write dates in each language', () => {
    const params = { organization: 'Acme', date: '2026-12-27' }
    expect(notificationText('subscription_ending', params, 'en')).toBe(
      'The subscription of Acme ends on December 27, 2026',
    )
    expect(notificationText('subscription_ending', params, 'zh')).toBe('Acme 的订阅将于 2026年12月27日 结束')
  })

  it('names the new roles as people read them, not as the stored list', () => {
    const params = { organization: 'Acme', role: 'member,admin' }
    expect(notificationText('role_changed', params, 'en')).toBe('Your role in Acme is now Member, Admin')
    expect(notificationText('role_changed', params, 'zh')).not.toMatch(/member|admin|,/)
    expect(notificationText('role_changed', params, 'zh')).toContain('成员、管理员')
  })

  it('has a sentence for every type in both languages, naming its values', () => {
    const params = {
      organization: 'Acme',
      inviter: 'Otto',
      role: 'admin',
      count: '3',
      title: 'Dune',
      url: 'https://x.example',
      date: '2026-01-02',
    }
    for (const { type, label } of allNoticeKinds) {
      expect(label(), `${type} has a name`).not.toBe('')
      for (const locale of ['en', 'zh'] as const) {
        const text = notificationText(type, params, locale)
        expect(text, `${type} in ${locale}`).not.toBe(type)
        expect(text, `${type} in ${locale}`).not.toMatch(/[{}]/)
      }
    }
    expect(notificationText('no_such_type', {}, 'en'), 'an unknown type shows as itself').toBe('no_such_type')
  })

  it('has each kind declared once, by the core or by one app', () => {
    const types = allNoticeKinds.map((kind) => kind.type)
    expect(types.filter((type, index) => types.indexOf(type) !== index)).toEqual([])
  })
})
