// Nobody hands out what they do not hold: a role, a role set, or a custom role's permissions (issue 26's probe found
// an admin giving themselves the owner's custom role and then deleting the organization).
import { and, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Action,
  builtInRoleStatements,
  grantedPermissions,
  mayGrant,
  type Permissions,
  parseRoleList,
  type Resource,
  statements,
} from '#/lib/access-control'
import { loadCustomRoles } from '#/server/auth/organization-access'
import { members, organizationRoles } from '#/server/db/schema'
import { type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

/** What an owner-made role grants beyond any admin: deleting the organization. */
const superadminPermission = { organization: ['update', 'delete'], member: ['update'] }

describe.each(coreEngines)('granting roles on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let orgId: string
  let owner: Person
  let admin: Person
  let adminMemberId: string
  let mia: Person
  let miaMemberId: string
  const db = () => database.connection.db
  const roleOf = async (memberId: string) =>
    (await db().select({ role: members.role }).from(members).where(eq(members.id, memberId)))[0]?.role

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    owner = await h.signUp('Gina Granter')
    orgId = await h.createOrganization(owner, 'Grant Co', 'grant-co')
    const created = await h.call('/organization/create-role', {
      body: { organizationId: orgId, role: 'superadmin', permission: superadminPermission },
      cookie: owner.cookie,
    })
    expect(created.status, `the owner creates superadmin: ${created.code}`).toBe(200)
    admin = await h.signUp('Arnold Admin')
    adminMemberId = await h.join(orgId, owner, admin, 'admin')
    mia = await h.signUp('Mia Member')
    miaMemberId = await h.join(orgId, owner, mia)
  })
  afterAll(() => database.dispose())

  it('an admin cannot give themselves, or anyone, the owner’s custom role, alone or beside admin', async () => {
    const before = await h.snapshot(orgId)
    for (const [memberId, role] of [
      [adminMemberId, 'superadmin'],
      [adminMemberId, ['admin', 'superadmin']],
      [adminMemberId, 'admin,superadmin'],
      [miaMemberId, 'superadmin'],
    ] as const) {
      const answer = await h.call('/organization/update-member-role', {
        body: { organizationId: orgId, memberId, role },
        cookie: admin.cookie,
      })
      expect([answer.status, answer.code], `role ${String(role)}`).toEqual([403, 'CANNOT_GRANT_PERMISSIONS_YOU_LACK'])
    }
    const invited = await h.call('/organization/invite-member', {
      body: { organizationId: orgId, email: 'new.super@example.com', role: 'superadmin' },
      cookie: admin.cookie,
    })
    expect([invited.status, invited.code]).toEqual([403, 'CANNOT_GRANT_PERMISSIONS_YOU_LACK'])
    expect(await h.snapshot(orgId), 'nothing changed').toEqual(before)
    // …so the organization survives the admin.
    const deleted = await h.call('/organization/delete', { body: { organizationId: orgId }, cookie: admin.cookie })
    expect(deleted.status).toBe(403)
  })

  it('an admin cannot mint or widen a custom role past their own permissions, nor edit or delete one above them', async () => {
    const before = await h.snapshot(orgId)
    const minted = await h.call('/organization/create-role', {
      body: { organizationId: orgId, role: 'deleter', permission: { organization: ['delete'] } },
      cookie: admin.cookie,
    })
    expect([minted.status, minted.code]).toEqual([403, 'CANNOT_GRANT_PERMISSIONS_YOU_LACK'])
    const widened = await h.call('/organization/update-role', {
      body: { organizationId: orgId, roleName: 'superadmin', data: { permission: { team: ['create'] } } },
      cookie: admin.cookie,
    })
    expect([widened.status, widened.code], 'editing a role above them').toEqual([
      403,
      'CANNOT_GRANT_PERMISSIONS_YOU_LACK',
    ])
    const removedRole = await h.call('/organization/delete-role', {
      body: { organizationId: orgId, roleName: 'superadmin' },
      cookie: admin.cookie,
    })
    expect([removedRole.status, removedRole.code]).toEqual([403, 'CANNOT_GRANT_PERMISSIONS_YOU_LACK'])
    expect(await h.snapshot(orgId), 'nothing changed').toEqual(before)

    // Within their own permissions they still shape roles: a team keeper, then changed within what admins may do.
    const keeper = await h.call('/organization/create-role', {
      body: { organizationId: orgId, role: 'keeper', permission: { team: ['create', 'update'] } },
      cookie: admin.cookie,
    })
    expect(keeper.status, `an admin creates a role inside admin: ${keeper.code}`).toBe(200)
    const keeperWider = await h.call('/organization/update-role', {
      body: { organizationId: orgId, roleName: 'keeper', data: { permission: { organization: ['delete'] } } },
      cookie: admin.cookie,
    })
    expect([keeperWider.status, keeperWider.code]).toEqual([403, 'CANNOT_GRANT_PERMISSIONS_YOU_LACK'])
    const keeperFine = await h.call('/organization/update-role', {
      body: { organizationId: orgId, roleName: 'keeper', data: { permission: { team: ['create', 'delete'] } } },
      cookie: admin.cookie,
    })
    expect(keeperFine.status, keeperFine.code).toBe(200)
  })

  it('a role request naming one role by name and another by id is checked against the role it changes', async () => {
    // Better Auth acts on the role named by `roleName` when there is one; the check must read that same row, whatever
    // order the database returns rows in.
    const helper = await h.call<{ roleData: { id: string } }>('/organization/create-role', {
      body: { organizationId: orgId, role: 'helper', permission: { team: ['create'] } },
      cookie: owner.cookie,
    })
    expect(helper.status, `the owner creates helper: ${helper.code}`).toBe(200)
    const idOf = async (role: string) =>
      (
        await db()
          .select({ id: organizationRoles.id })
          .from(organizationRoles)
          .where(and(eq(organizationRoles.organizationId, orgId), eq(organizationRoles.role, role)))
      )[0]?.id ?? ''
    const [helperId, superadminId] = [await idOf('helper'), await idOf('superadmin')]
    const before = await h.snapshot(orgId)
    for (const path of ['/organization/update-role', '/organization/delete-role']) {
      const aimedAtSuperadmin = await h.call(path, {
        body: {
          organizationId: orgId,
          roleName: 'superadmin',
          roleId: helperId,
          data: { permission: { team: ['create'] } },
        },
        cookie: admin.cookie,
      })
      expect([aimedAtSuperadmin.status, aimedAtSuperadmin.code], path).toEqual([
        403,
        'CANNOT_GRANT_PERMISSIONS_YOU_LACK',
      ])
    }
    expect(await h.snapshot(orgId), 'superadmin is untouched').toEqual(before)
    const aimedAtHelper = await h.call('/organization/update-role', {
      body: {
        organizationId: orgId,
        roleName: 'helper',
        roleId: superadminId,
        data: { permission: { team: ['create', 'update'] } },
      },
      cookie: admin.cookie,
    })
    expect(aimedAtHelper.status, `the admin may change helper: ${aimedAtHelper.code}`).toBe(200)
    const custom = await loadCustomRoles(db(), orgId)
    expect(custom.helper).toEqual({ team: ['create', 'update'] })
    expect(custom.superadmin).toEqual(superadminPermission)
  })

  it('a member holding permissions the admin lacks can be changed or removed only by someone who holds them', async () => {
    const sam = await h.signUp('Sam Super')
    const samMemberId = await h.join(orgId, owner, sam)
    const promoted = await h.call('/organization/update-member-role', {
      body: { organizationId: orgId, memberId: samMemberId, role: 'superadmin' },
      cookie: owner.cookie,
    })
    expect(promoted.status, `the owner grants superadmin: ${promoted.code}`).toBe(200)
    const demoted = await h.call('/organization/update-member-role', {
      body: { organizationId: orgId, memberId: samMemberId, role: 'member' },
      cookie: admin.cookie,
    })
    expect([demoted.status, demoted.code]).toEqual([403, 'MEMBER_HAS_PERMISSIONS_YOU_LACK'])
    for (const memberIdOrEmail of [samMemberId, sam.email]) {
      const removed = await h.call('/organization/remove-member', {
        body: { organizationId: orgId, memberIdOrEmail },
        cookie: admin.cookie,
      })
      expect([removed.status, removed.code], memberIdOrEmail).toEqual([403, 'MEMBER_HAS_PERMISSIONS_YOU_LACK'])
    }
    expect(await roleOf(samMemberId)).toBe('superadmin')
    // Handing out what admins hold is still the admin's job.
    const toAdmin = await h.call('/organization/update-member-role', {
      body: { organizationId: orgId, memberId: miaMemberId, role: ['member', 'admin'] },
      cookie: admin.cookie,
    })
    expect(toAdmin.status, toAdmin.code).toBe(200)
    const back = await h.call('/organization/update-member-role', {
      body: { organizationId: orgId, memberId: miaMemberId, role: 'member' },
      cookie: admin.cookie,
    })
    expect(back.status, back.code).toBe(200)
  })

  it('property: whatever roles exist and whoever assigns, nobody ends with a permission the assigner lacked', async () => {
    const resources = Object.keys(statements) as Resource[]
    const permissionArbitrary: fc.Arbitrary<Permissions> = fc
      .record(
        Object.fromEntries(
          resources.map((resource) => [resource, fc.subarray([...statements[resource]] as Action[])]),
        ) as Record<Resource, fc.Arbitrary<Action[]>>,
        { requiredKeys: [] },
      )
      .map((permission) =>
        Object.fromEntries(Object.entries(permission).filter(([, actions]) => actions.length > 0)),
      ) as fc.Arbitrary<Permissions>
    const customNames = ['alpha', 'beta', 'gamma']
    const roleName = fc.constantFrom('admin', 'member', ...customNames)
    const granterRoles = fc.uniqueArray(roleName, { minLength: 1, maxLength: 2 })
    const grantedRoles = fc.uniqueArray(fc.constantFrom('owner', 'admin', 'member', ...customNames), {
      minLength: 1,
      maxLength: 3,
    })
    const granter = await h.signUp('Pat Property')
    const granterMemberId = await h.join(orgId, owner, granter)
    const target = await h.signUp('Tom Property')
    const targetMemberId = await h.join(orgId, owner, target)
    const setRole = (memberId: string, role: string) =>
      db().update(members).set({ role }).where(eq(members.id, memberId))

    await fc.assert(
      fc.asyncProperty(
        fc.tuple(permissionArbitrary, permissionArbitrary, permissionArbitrary),
        granterRoles,
        grantedRoles,
        fc.constantFrom('update-member-role', 'invite-member', 'create-role'),
        async (customPermissions, granterSet, grantedSet, kind) => {
          // The organization's custom roles and the two members' roles, as the case describes them.
          await db()
            .delete(organizationRoles)
            .where(and(eq(organizationRoles.organizationId, orgId)))
          await db()
            .insert(organizationRoles)
            .values(
              customNames.map((role, index) => ({
                id: `${role}-${index}-${Math.random().toString(36).slice(2)}`,
                organizationId: orgId,
                role,
                permission: JSON.stringify(customPermissions[index]),
                createdAt: new Date(),
              })),
            )
          await setRole(granterMemberId, granterSet.join(','))
          await setRole(targetMemberId, 'member')
          const custom = await loadCustomRoles(db(), orgId)
          const held = granterSet.map((role) => grantedPermissions([role], custom))
          const heldBefore = (role: string) => mayGrant(held, grantedPermissions([role], custom))

          if (kind === 'create-role') {
            const permission = customPermissions[0]
            const answer = await h.call('/organization/create-role', {
              body: { organizationId: orgId, role: `made-${Math.random().toString(36).slice(2, 8)}`, permission },
              cookie: granter.cookie,
            })
            if (!mayGrant(held, permission)) {
              expect([answer.status, answer.code], 'a role created beyond its creator').toEqual([
                403,
                'CANNOT_GRANT_PERMISSIONS_YOU_LACK',
              ])
            }
            return
          }
          if (kind === 'invite-member') {
            const answer = await h.call<{ role?: string }>('/organization/invite-member', {
              body: {
                organizationId: orgId,
                email: `p${Math.random().toString(36).slice(2)}@example.com`,
                role: grantedSet,
              },
              cookie: granter.cookie,
            })
            if (!grantedSet.every(heldBefore)) expect(answer.status, 'an invitation beyond its inviter').not.toBe(200)
            return
          }
          const answer = await h.call('/organization/update-member-role', {
            body: { organizationId: orgId, memberId: targetMemberId, role: grantedSet },
            cookie: granter.cookie,
          })
          const now = parseRoleList((await roleOf(targetMemberId)) ?? '')
          if (answer.status === 200) {
            expect(now.every(heldBefore), `target now ${now.join(',')}, granter ${granterSet.join(',')}`).toBe(true)
          } else {
            expect(now, 'a refused change changes nothing').toEqual(['member'])
          }
          if (!grantedSet.every(heldBefore)) expect(answer.status).not.toBe(200)
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    )
    // The built-in roles keep their meaning: an admin can never grant owner, an owner anything.
    expect(mayGrant([builtInRoleStatements.admin], builtInRoleStatements.owner)).toBe(false)
    expect(mayGrant([builtInRoleStatements.owner], builtInRoleStatements.admin)).toBe(true)
  }, 240_000)
})
