import { describe, expect, it } from 'vitest'
import { allows, builtInRoleStatements, grantedPermissions, parseRoleList, statements } from '#/lib/access-control'

describe('the access-control definition', () => {
  it('has the spec’s resources and actions (section 6) and the product’s own', () => {
    expect(statements.organization).toEqual(['update', 'delete'])
    expect(statements.member).toEqual(['create', 'update', 'delete'])
    expect(statements.invitation).toEqual(['create', 'cancel'])
    expect(statements.team).toEqual(['create', 'update', 'delete'])
    expect(statements.ac).toEqual(['create', 'read', 'update', 'delete'])
    expect(statements.activity).toEqual(['read'])
  })

  it('gives the owner everything', () => {
    for (const [resource, actions] of Object.entries(statements)) {
      expect(allows(grantedPermissions(['owner'], {}), { [resource]: [...actions] }), resource).toBe(true)
    }
  })

  it('gives an admin everything but deleting the organization', () => {
    const admin = grantedPermissions(['admin'], {})
    expect(allows(admin, { organization: ['update'] })).toBe(true)
    expect(allows(admin, { organization: ['delete'] })).toBe(false)
    expect(allows(admin, { member: ['create', 'update', 'delete'], ac: ['create', 'delete'] })).toBe(true)
  })

  it('lets a member read roles, and change nothing of the organization', () => {
    const member = grantedPermissions(['member'], {})
    expect(allows(member, { ac: ['read'] })).toBe(true)
    expect(allows(member, { ac: ['create'] })).toBe(false)
    expect(allows(member, { invitation: ['create'] })).toBe(false)
    expect(allows(member, { activity: ['read'] })).toBe(false)
    expect(allows(member, { member: ['create'] })).toBe(false)
    expect(builtInRoleStatements.member.organization).toEqual([])
  })

  it('passes a check when any of several roles grants it, and only then', () => {
    const custom = { 'activity-reader': { activity: ['read' as const] } }
    const both = grantedPermissions(parseRoleList('member, activity-reader'), custom)
    expect(allows(both, { activity: ['read'] })).toBe(true)
    expect(allows(both, { ac: ['read'] })).toBe(true)
    expect(allows(both, { ac: ['create'] })).toBe(false)
    expect(allows(grantedPermissions(['activity-reader'], custom), { ac: ['read'] })).toBe(false)
  })

  it('grants nothing for a role that does not exist', () => {
    expect(allows(grantedPermissions(['ghost'], {}), { ac: ['read'] })).toBe(false)
  })

  it('splits stored roles the way Better Auth does', () => {
    expect(parseRoleList('admin, member,,')).toEqual(['admin', 'member'])
    expect(parseRoleList(['owner', ' admin'])).toEqual(['owner', 'admin'])
  })
})
