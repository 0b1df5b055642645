import { describe, expect, it } from 'vitest'
import { allows, grantedPermissions, statements } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

describe("billing's organization permissions", () => {
  it('lets owners read and manage billing, admins read it, members neither', () => {
    expect(statements.billing).toEqual(['read', 'manage'])
    const owner = grantedPermissions(['owner'], {})
    expect(allows(owner, { billing: ['read', 'manage'] })).toBe(true)
    const admin = grantedPermissions(['admin'], {})
    expect(allows(admin, { billing: ['read'] })).toBe(true)
    expect(allows(admin, { billing: ['manage'] })).toBe(false)
    expect(allows(grantedPermissions(['member'], {}), { billing: ['read'] })).toBe(false)
  })

  it('says one order and many orders in English as English does', () => {
    expect(m.dashboard_revenue_totals({ orders: '1', amount: '$19', refunded: '$0' }, { locale: 'en' })).toMatch(
      /^1 order ·/,
    )
  })
})
