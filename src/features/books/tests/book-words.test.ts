import { describe, expect, it } from 'vitest'
import { allows, grantedPermissions, statements } from '#/lib/access-control'
import { oneFinalStop } from '#/lib/sentence'
import { m } from '#/paraglide/messages'

describe('books among the organization permissions', () => {
  it('adds its resource: every book, or only the member’s own', () => {
    expect(statements.book).toEqual(['create', 'read', 'update', 'delete', 'update-own', 'delete-own'])
  })

  it('lets a member create and read books, and change only their own; an admin any', () => {
    const member = grantedPermissions(['member'], {})
    expect(allows(member, { book: ['create', 'read', 'update-own', 'delete-own'] })).toBe(true)
    expect(allows(member, { book: ['update'] })).toBe(false)
    expect(allows(member, { book: ['delete'] })).toBe(false)
    expect(allows(grantedPermissions(['admin'], {}), { book: ['update', 'delete'] })).toBe(true)
    const custom = { 'activity-reader': { activity: ['read' as const] } }
    expect(allows(grantedPermissions(['member', 'activity-reader'], custom), { book: ['create'] })).toBe(true)
    expect(allows(grantedPermissions(['activity-reader'], custom), { book: ['read'] })).toBe(false)
  })
})

describe('the books’ words', () => {
  it('say one book and many books in English as English does', () => {
    expect(m.books_import_problems({ problems: '1', rows: '1' }, { locale: 'en' })).toMatch(/^1 problem in 1 row\./)
    expect(m.books_import_problems({ problems: '4', rows: '2' }, { locale: 'en' })).toMatch(/^4 problems in 2 rows\./)
    expect(m.books_import_queued({ count: '1' }, { locale: 'en' })).toMatch(/^Importing 1 book in/)
    expect(m.books_import_stopped({ imported: '0', total: '1', reason: 'x' }, { locale: 'en' })).toMatch(/0 of 1 book:/)
    expect(m.notification_import_failed({ count: '1' }, { locale: 'en' })).toMatch(/after 1 row;/)
  })

  it('do not double the full stop a title brings', () => {
    expect(oneFinalStop(m.books_deleted({ title: 'Vol. 2.' }, { locale: 'en' }))).toBe('Deleted Vol. 2.')
  })
})
