import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { members, organizationRoles, organizations, users } from '#/server/db/schema'
import {
  type ActivityPage,
  type OrganizationHarness,
  organizationHarness,
  type Person,
  password,
} from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

describe.each(coreEngines)('organizations on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  const db = () => database.connection.db
  const roleOf = async (organizationId: string, person: Person) => (await h.membership(organizationId, person.id))?.role
  const organizationsOf = async (person: Person) =>
    (await h.call<{ id: string; name: string }[]>('/organization/list', { cookie: person.cookie })).body
  const allOrganizations = () => db().select().from(organizations)

  let guestId: string
  let grace: Person
  let henry: Person

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    // A guest comes first; the first real account still becomes the app admin.
    const guest = await h.call<{ user: { id: string } }>('/sign-in/anonymous', { body: {} })
    expect(guest.status, `a guest signs in: ${guest.code}`).toBe(200)
    guestId = guest.body.user.id
    grace = await h.signUp('Grace Hopper')
    henry = await h.signUp('Henry Ford')
  })
  afterAll(() => database.dispose())

  describe('every account works in an organization', () => {
    it('a new account has exactly one organization, "{name}’s workspace", owns it, and its session starts in it', async () => {
      const own = await organizationsOf(grace)
      expect(own.map((organization) => organization.name)).toEqual(["Grace Hopper's workspace"])
      const workspaceId = own[0]?.id ?? ''
      expect(await roleOf(workspaceId, grace)).toBe('owner')
      expect(await h.activeOrganizationOf(grace)).toBe(workspaceId)
    })

    it('an account made from a Chinese page gets "{name}的工作区"', async () => {
      const liWei = await h.signUp('Li Wei', { referer: 'http://localhost:3000/zh/sign-up' })
      expect((await organizationsOf(liWei)).map((organization) => organization.name)).toEqual(['Li Wei的工作区'])
    })

    it('the first account that is not a guest runs the install (app role admin); later ones are users', async () => {
      const roleOfUser = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]?.role
      expect(await roleOfUser(guestId), 'the guest').toBe('user')
      expect(await roleOfUser(grace.id), 'the first account').toBe('admin')
      expect(await roleOfUser(henry.id), 'the second account').toBe('user')
    })
  })

  describe('an organization never loses its last owner', () => {
    let olga: Person
    let alan: Person
    let mo: Person
    let orgId: string
    const memberIdOf = async (person: Person) => (await h.membership(orgId, person.id))?.id
    const membersNow = () => db().select().from(members).where(eq(members.organizationId, orgId))

    beforeAll(async () => {
      olga = await h.signUp('Olga Owner')
      alan = await h.signUp('Alan Admin')
      mo = await h.signUp('Mo Member')
      orgId = await h.createOrganization(olga, 'Last Owner Ltd', 'last-owner')
      await h.join(orgId, olga, alan, 'admin')
      await h.join(orgId, olga, mo, 'member')
    })

    it('the only owner can neither leave, nor be removed, nor step down to admin; nothing changes', async () => {
      const before = await membersNow()
      const leave = await h.call('/organization/leave', { body: { organizationId: orgId }, cookie: olga.cookie })
      expect(leave).toMatchObject({ status: 400, code: 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER' })
      const removeSelf = await h.call('/organization/remove-member', {
        body: { organizationId: orgId, memberIdOrEmail: olga.email },
        cookie: olga.cookie,
      })
      expect(removeSelf).toMatchObject({ status: 400, code: 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER' })
      const stepDown = await h.call('/organization/update-member-role', {
        body: { organizationId: orgId, memberId: await memberIdOf(olga), role: 'admin' },
        cookie: olga.cookie,
      })
      expect(stepDown).toMatchObject({ status: 400, code: 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER' })
      expect(await membersNow()).toEqual(before)
    })

    it('an admin can neither demote nor remove the owner, nor make themselves or anyone else owner', async () => {
      const before = await membersNow()
      const demote = await h.call('/organization/update-member-role', {
        body: { organizationId: orgId, memberId: await memberIdOf(olga), role: 'admin' },
        cookie: alan.cookie,
      })
      // The owner holds what no admin does: nobody changes a member who outranks them (role-grants.test.ts).
      expect(demote).toMatchObject({ status: 403, code: 'MEMBER_HAS_PERMISSIONS_YOU_LACK' })
      const remove = await h.call('/organization/remove-member', {
        body: { organizationId: orgId, memberIdOrEmail: await memberIdOf(olga) },
        cookie: alan.cookie,
      })
      expect(remove, `the admin removing the owner: ${remove.code}`).toMatchObject({
        status: 403,
        code: 'MEMBER_HAS_PERMISSIONS_YOU_LACK',
      })
      const promote = await h.call('/organization/update-member-role', {
        body: { organizationId: orgId, memberId: await memberIdOf(alan), role: 'owner' },
        cookie: alan.cookie,
      })
      expect(promote).toMatchObject({ status: 403, code: 'CANNOT_GRANT_PERMISSIONS_YOU_LACK' })
      const inviteOwner = await h.call('/organization/invite-member', {
        body: { organizationId: orgId, email: 'second-owner@example.com', role: 'owner' },
        cookie: alan.cookie,
      })
      expect(inviteOwner).toMatchObject({ status: 403, code: 'CANNOT_GRANT_PERMISSIONS_YOU_LACK' })
      expect(await membersNow()).toEqual(before)
    })

    it('transferring ownership makes the target owner and the caller admin, after which the former owner may leave', async () => {
      const transfer = await h.trpc('mutation', 'organizations.transferOwnership', olga.cookie, {
        memberId: await memberIdOf(alan),
      })
      expect(transfer, transfer.error?.message).toMatchObject({ status: 200, data: { transferred: true } })
      expect(await roleOf(orgId, alan)).toBe('owner')
      expect(await roleOf(orgId, olga)).toBe('admin')

      const leave = await h.call('/organization/leave', { body: { organizationId: orgId }, cookie: olga.cookie })
      expect(leave.status, `the former owner leaves: ${leave.code}`).toBe(200)
      expect(await h.membership(orgId, olga.id)).toBeUndefined()
      const log = await h.trpc<ActivityPage>('query', 'organizations.activity', alan.cookie, {})
      expect(log.data?.items.map(({ action, actorName }) => ({ action, actorName }))).toContainEqual({
        action: 'ownership_transferred',
        actorName: 'Olga Owner',
      })
    })

    it('the last owner of an organization others still belong to cannot delete their account', async () => {
      const refused = await h.call('/delete-user', { body: { password }, cookie: alan.cookie })
      expect(refused).toMatchObject({ status: 400, code: 'ACCOUNT_IS_LAST_OWNER' })
      expect(await db().select().from(users).where(eq(users.id, alan.id))).toHaveLength(1)
      expect(await roleOf(orgId, alan)).toBe('owner')
    })

    it('an account alone in its workspace is deleted with the workspace; its other memberships simply end', async () => {
      const [workspace] = (await organizationsOf(mo)).filter((organization) => organization.id !== orgId)
      expect(workspace?.name).toBe("Mo Member's workspace")
      const deleted = await h.call('/delete-user', { body: { password }, cookie: mo.cookie })
      expect(deleted.status, `Mo deletes the account: ${deleted.code}`).toBe(200)
      expect(await db().select().from(users).where(eq(users.id, mo.id))).toEqual([])
      expect(
        await db()
          .select()
          .from(organizations)
          .where(eq(organizations.id, workspace?.id ?? '')),
      ).toEqual([])
      expect((await membersNow()).map((member) => member.userId)).toEqual([alan.id])
    })
  })

  describe('slugs, names and logos', () => {
    let orgId: string
    beforeAll(async () => {
      orgId = await h.createOrganization(grace, 'Compilers Inc', 'compilers')
      await h.createOrganization(grace, 'Taken Inc', 'taken')
    })

    it('a slug another organization has is refused on create and on update, and nothing is stored', async () => {
      const before = await allOrganizations()
      const create = await h.call('/organization/create', {
        body: { name: 'Copycat', slug: 'taken' },
        cookie: henry.cookie,
      })
      expect(create).toMatchObject({ status: 400, code: 'ORGANIZATION_ALREADY_EXISTS' })
      const update = await h.call('/organization/update', {
        body: { organizationId: orgId, data: { slug: 'taken' } },
        cookie: grace.cookie,
      })
      expect(update).toMatchObject({ status: 400, code: 'ORGANIZATION_SLUG_ALREADY_TAKEN' })
      expect(await allOrganizations()).toEqual(before)
    })

    it('refuses malformed slugs, an empty name and a script logo, on create and on update', async () => {
      const before = await allOrganizations()
      const invalid = [
        [{ name: 'Spaces', slug: 'A B' }, 'ORGANIZATION_SLUG_INVALID'],
        [{ name: 'Too short', slug: 'ab' }, 'ORGANIZATION_SLUG_INVALID'],
        [{ name: 'Double hyphen', slug: 'x--y' }, 'ORGANIZATION_SLUG_INVALID'],
        [{ name: 'Too long', slug: 'a'.repeat(49) }, 'ORGANIZATION_SLUG_INVALID'],
        [{ name: '', slug: 'no-name' }, 'ORGANIZATION_NAME_REQUIRED'],
        [{ name: '   ', slug: 'blank-name' }, 'ORGANIZATION_NAME_REQUIRED'],
        [{ name: 'Scripted', slug: 'scripted', logo: 'javascript:alert(1)' }, 'ORGANIZATION_LOGO_INVALID'],
      ] as const
      for (const [fields, code] of invalid) {
        const create = await h.call('/organization/create', { body: fields, cookie: henry.cookie })
        expect(create, `create ${JSON.stringify(fields)}`).toMatchObject({ status: 400, code })
        const update = await h.call('/organization/update', {
          body: { organizationId: orgId, data: fields },
          cookie: grace.cookie,
        })
        expect(update, `update to ${JSON.stringify(fields)}`).toMatchObject({ status: 400, code })
      }
      // A list sorted or filtered by a column that does not exist is the caller's mistake, not a 500.
      const list = (query: string) =>
        h.call(`/organization/list-members?organizationId=${orgId}&${query}`, { cookie: grace.cookie })
      expect(await list('sortBy=undefined')).toMatchObject({ status: 400, code: 'INVALID_SORT_FIELD' })
      expect(await list('filterField=undefined&filterValue=x')).toMatchObject({
        status: 400,
        code: 'INVALID_FILTER_FIELD',
      })
      expect((await list('filterField=role&filterValue=owner')).status).toBe(200)
      // Nothing to change (no field, or only fields the organization does not have) is the caller's mistake, not a 500.
      for (const data of [{}, { color: 'red' }]) {
        const update = await h.call('/organization/update', {
          body: { organizationId: orgId, data },
          cookie: grace.cookie,
        })
        expect(update, `update with ${JSON.stringify(data)}`).toMatchObject({ status: 400, code: 'NOTHING_TO_UPDATE' })
      }
      expect(await allOrganizations()).toEqual(before)
      const fine = await h.call('/organization/create', {
        body: { name: 'Fine', slug: 'a'.repeat(48) },
        cookie: henry.cookie,
      })
      expect(fine.status, 'a 48-character slug is fine').toBe(200)
    })
  })

  describe('custom roles', () => {
    let orgId: string
    let orgCount = 0
    // Each story gets its own organization, so what one stores never shows up in another's.
    beforeEach(async () => {
      orgCount += 1
      orgId = await h.createOrganization(grace, `Roles Ltd ${orgCount}`, `roles-ltd-${orgCount}`)
    })
    const rolesNow = async () =>
      (await db().select().from(organizationRoles).where(eq(organizationRoles.organizationId, orgId))).map(
        (row) => row.role,
      )
    const createRole = (role: string, permission: unknown) =>
      h.call('/organization/create-role', { body: { organizationId: orgId, role, permission }, cookie: grace.cookie })

    it('refuses role names with a comma or a space, unknown resources or actions, and the built-in names', async () => {
      for (const [role, permission, code] of [
        ['sales,ops', { team: ['update'] }, 'ROLE_NAME_INVALID'],
        ['Sales Team', { team: ['update'] }, 'ROLE_NAME_INVALID'],
        ['sales team', { team: ['update'] }, 'ROLE_NAME_INVALID'],
        ['clerk', { team: ['fly'] }, 'PERMISSION_INVALID'],
        ['clerk', { spaceship: ['read'] }, 'PERMISSION_INVALID'],
        ['admin', { team: ['update'] }, 'ROLE_NAME_IS_ALREADY_TAKEN'],
        ['owner', { team: ['update'] }, 'ROLE_NAME_IS_ALREADY_TAKEN'],
      ] as const) {
        const answer = await createRole(role, permission)
        expect.soft(answer, `role "${role}" with ${JSON.stringify(permission)}`).toMatchObject({ status: 400, code })
      }
      expect(await rolesNow()).toEqual([])
    })

    it('refuses a role name in capitals instead of storing another name than the one asked for', async () => {
      const answer = await createRole('Sales', { team: ['update'] })
      expect(answer).toMatchObject({ status: 400, code: 'ROLE_NAME_INVALID' })
      expect(await rolesNow()).toEqual([])
    })

    it('a role members hold cannot be deleted; once they hold another, it can', async () => {
      expect((await createRole('clerk', { team: ['update', 'create'] })).status).toBe(200)
      const renamed = await h.call('/organization/update-role', {
        body: { organizationId: orgId, roleName: 'clerk', data: { roleName: 'clerk,admin' } },
        cookie: grace.cookie,
      })
      expect(renamed, 'renaming to a name with a comma').toMatchObject({ status: 400, code: 'ROLE_NAME_INVALID' })
      const clerk = await h.signUp('Carl Clerk')
      const memberId = await h.join(orgId, grace, clerk, 'clerk')
      expect(await roleOf(orgId, clerk)).toBe('clerk')

      const deleteRole = () =>
        h.call('/organization/delete-role', {
          body: { organizationId: orgId, roleName: 'clerk' },
          cookie: grace.cookie,
        })
      expect(await deleteRole()).toMatchObject({ status: 400, code: 'ROLE_IS_ASSIGNED_TO_MEMBERS' })
      expect(await rolesNow()).toEqual(['clerk'])

      const reassigned = await h.call('/organization/update-member-role', {
        body: { organizationId: orgId, memberId, role: 'member' },
        cookie: grace.cookie,
      })
      expect(reassigned.status).toBe(200)
      expect((await deleteRole()).status).toBe(200)
      expect(await rolesNow()).toEqual([])
    })

    it('renaming a role never changes what its members may do', async () => {
      expect((await createRole('clerk', { team: ['update', 'create'] })).status).toBe(200)
      const rita = await h.signUp('Rita Renamed')
      await h.join(orgId, grace, rita, 'clerk')
      const mayCreateTeams = async () =>
        (
          await h.call<{ success: boolean }>('/organization/has-permission', {
            body: { organizationId: orgId, permissions: { team: ['create'] } },
            cookie: rita.cookie,
          })
        ).body.success
      expect(await mayCreateTeams(), 'as a clerk, Rita may create teams').toBe(true)
      // Renaming would leave Rita's stored role naming nothing: refused while anyone holds the role, like deleting.
      const rename = await h.call('/organization/update-role', {
        body: { organizationId: orgId, roleName: 'clerk', data: { roleName: 'cashier' } },
        cookie: grace.cookie,
      })
      expect(rename).toMatchObject({ status: 400, code: 'ROLE_IS_ASSIGNED_TO_MEMBERS' })
      expect(await mayCreateTeams(), `after the refused rename Rita holds "${await roleOf(orgId, rita)}"`).toBe(true)
    })
  })

  describe('the activity log', () => {
    let orgId: string
    const entries = async () => {
      const log = await h.trpc<ActivityPage>('query', 'organizations.activity', grace.cookie, {})
      expect(log.status, log.error?.message).toBe(200)
      return log.data?.items.map(({ action, actorName, details }) => ({ action, actorName, details }))
    }
    beforeAll(async () => {
      orgId = await h.createOrganization(grace, 'Logged Co', 'logged-co')
    })

    it('records invitations, role changes and new teams with who did them; a plain member may not read it', async () => {
      const ivy = await h.signUp('Ivy Invitee')
      const ivyMemberId = await h.join(orgId, grace, ivy, 'member')
      const team = await h.call('/organization/create-team', { body: { name: 'Night shift' }, cookie: grace.cookie })
      expect(team.status).toBe(200)
      await h.invite(grace, orgId, 'later@example.com', 'admin')

      const readByMember = await h.trpc('query', 'organizations.activity', ivy.cookie, {})
      expect(readByMember).toMatchObject({ status: 403, error: { code: 'FORBIDDEN' } })

      const changed = await h.call('/organization/update-member-role', {
        body: { organizationId: orgId, memberId: ivyMemberId, role: 'admin' },
        cookie: grace.cookie,
      })
      expect(changed.status).toBe(200)
      expect(await entries()).toEqual(
        expect.arrayContaining([
          {
            action: 'member_invited',
            actorName: 'Grace Hopper',
            details: { email: 'later@example.com', role: 'admin' },
          },
          { action: 'team_created', actorName: 'Grace Hopper', details: { team: 'Night shift' } },
          {
            action: 'member_role_changed',
            actorName: 'Grace Hopper',
            details: { name: 'Ivy Invitee', from: 'member', to: 'admin' },
          },
          expect.objectContaining({ action: 'member_joined', actorName: 'Ivy Invitee' }),
        ]),
      )
      // Now an admin, Ivy reads the same log.
      expect((await h.trpc('query', 'organizations.activity', ivy.cookie, {})).status).toBe(200)
    })

    it('records a member removed by someone else as member_removed, by whoever removed them', async () => {
      const rex = await h.signUp('Rex Removed')
      const rexMemberId = await h.join(orgId, grace, rex)
      const removed = await h.call('/organization/remove-member', {
        body: { organizationId: orgId, memberIdOrEmail: rexMemberId },
        cookie: grace.cookie,
      })
      expect(removed.status).toBe(200)
      expect(await entries()).toContainEqual({
        action: 'member_removed',
        actorName: 'Grace Hopper',
        details: { name: 'Rex Removed', email: rex.email },
      })
    })

    it('records a member who leaves as member_left', async () => {
      const lea = await h.signUp('Lea Leaving')
      await h.join(orgId, grace, lea)
      const left = await h.call('/organization/leave', { body: { organizationId: orgId }, cookie: lea.cookie })
      expect(left.status).toBe(200)
      // /organization/leave runs none of the plugin's member hooks: organization-checks.ts records it.
      expect(await entries()).toContainEqual({
        action: 'member_left',
        actorName: 'Lea Leaving',
        details: { name: 'Lea Leaving', email: lea.email },
      })
    })
  })
})
