import { describe, expect, it } from 'vitest'
import { authPageSearch, magicLinkSearch } from '#/features/auth/search'
import { dashboardSearch } from '#/features/dashboard/search'
import { memberListSearch } from '#/features/organizations/search'
import { userListSearch } from '#/features/users/search'

// What a page makes of its address: TanStack Router hands validateSearch the parsed query (JSON values where the
// text parses as JSON, strings otherwise).
describe('URL parameters', () => {
  it('reads a list’s page and size typed as digits, and drops them out of range', () => {
    expect(memberListSearch({ page: '2', size: '100' }), 'digits read as numbers').toEqual({ page: 2, size: 100 })
    expect(userListSearch({ page: 10_001, size: 1000 })).toEqual({})
  })

  it('accepts only real calendar days', () => {
    expect(userListSearch({ joinedFrom: '2024-02-29', joinedTo: '2023-02-29' })).toEqual({ joinedFrom: '2024-02-29' })
    expect(dashboardSearch({ range: 'custom', from: '2026-13-01', to: '2026-1-5', granularity: 'week' })).toEqual({
      range: 'custom',
      granularity: 'week',
    })
  })

  it('keeps a custom role name only when it could be one', () => {
    expect(memberListSearch({ role: ' editor ' })).toEqual({ role: 'editor' })
    expect(memberListSearch({ role: 'Editor, admin' })).toEqual({})
  })

  it('passes the sign-in redirect through untouched (it is checked again before use)', () => {
    expect(authPageSearch({ redirect: '/en/console?tab=1' })).toEqual({ redirect: '/en/console?tab=1' })
    expect(authPageSearch({ redirect: 42 })).toEqual({})
    expect(magicLinkSearch({ redirect: '/en/console', error: 'EXPIRED_TOKEN', token: 'kept out' })).toEqual({
      redirect: '/en/console',
      error: 'EXPIRED_TOKEN',
    })
  })
})
