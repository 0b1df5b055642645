import { describe, expect, it } from 'vitest'
import { roleLabel, rolesLabel } from '#/lib/role-labels'

describe('role names for people', () => {
  it('translates the built-in roles in each language', () => {
    expect(roleLabel('admin', 'en')).toBe('Admin')
    expect(roleLabel('owner', 'zh')).toBe('所有者')
    expect(roleLabel('member', 'zh')).toBe('成员')
  })

  it('writes a custom role by the name its organization gave it, as a name', () => {
    expect(roleLabel('content-editor', 'en')).toBe('Content editor')
    expect(roleLabel('content-editor', 'zh')).toBe('Content editor')
  })

  it('reads a stored role list ("member,admin") as a list in the language of the reader', () => {
    expect(rolesLabel('member,admin', 'en')).toBe('Member, Admin')
    expect(rolesLabel('member,admin', 'zh')).toBe('成员、管理员')
    expect(rolesLabel(' admin , content-editor ', 'en')).toBe('Admin, Content editor')
  })

  it('says nothing for an empty list rather than a stray separator', () => {
    expect(rolesLabel('', 'en')).toBe('')
    expect(rolesLabel(',', 'zh')).toBe('')
  })
})
