import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { statements } from '#/lib/access-control'
import { invitations, members, organizationRoles, organizations, teams } from '#/server/db/schema'
import {
  type ActivityPage,
  type Answer,
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

/**
 * What an installed app's resources grant, written out by hand in its own tests (permission-grants.ts), so that its
 * rows of the matrix go with it when it is removed.
 */
interface AppGrants {
  everyAction: Record<string, readonly string[]>
  owner: Record<string, readonly string[]>
  admin: Record<string, readonly string[]>
  member: Record<string, readonly string[]>
}
const appGrants = Object.values(
  import.meta.glob<{ permissionGrants: AppGrants }>('../../src/features/*/tests/permission-grants.ts', { eager: true }),
).map((module) => module.permissionGrants)
const fromApps = (part: keyof AppGrants) => Object.assign({}, ...appGrants.map((grants) => grants[part]))

/** Every resource and action there is: SPEC section 6, plus the product's activity log (and the apps': billing…). */
const coreActions = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  activity: ['read'],
} as const
const everyAction: Record<string, readonly string[]> = { ...coreActions, ...fromApps('everyAction') }
type Resource = string
type Grants = Record<string, readonly string[] | undefined>

/** The organization's own role: it invites, runs teams and reads the log, but cannot read roles. */
const editorPermission = {
  invitation: ['create'],
  team: ['create', 'update'],
  activity: ['read'],
}

const roles = ['owner', 'admin', 'member', 'editor', 'member,editor'] as const
type Role = (typeof roles)[number]

/** What each role may do, written out by hand: the matrix the server must answer, action by action. */
const grants: Record<Role, Grants> = {
  owner: { ...coreActions, ...fromApps('owner') },
  admin: {
    organization: ['update'],
    member: ['create', 'update', 'delete'],
    invitation: ['create', 'cancel'],
    team: ['create', 'update', 'delete'],
    ac: ['create', 'read', 'update', 'delete'],
    activity: ['read'],
    ...fromApps('admin'),
  },
  member: { ac: ['read'], ...fromApps('member') },
  editor: editorPermission,
  // A check passes when either role grants it.
  'member,editor': {
    ac: ['read'],
    invitation: ['create'],
    team: ['create', 'update'],
    activity: ['read'],
    ...fromApps('member'),
  },
}
const may = (role: Role, resource: Resource, action: string) => grants[role][resource]?.includes(action) ?? false
const slugOf = (role: Role) => role.replace(',', '-')
const sorted = (grant: Grants) =>
  Object.fromEntries(Object.entries(grant).map(([resource, actions]) => [resource, [...(actions ?? [])].sort()]))

/** The verdict an answer gives: done, refused (401/403), or something else that is neither. */
const verdictOf = (answer: { status: number; code?: string }) =>
  answer.status === 200 ? 'allowed' : [401, 403].includes(answer.status) ? 'refused' : `answered ${answer.status}`

describe.each(coreEngines)('the permission matrix on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let orgId: string
  let owner: Person
  let tina: Person
  let tinaMemberId: string
  let sharedTeamId: string
  const actors = {} as Record<Role, Person>
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    owner = await h.signUp('Olivia Owner')
    orgId = await h.createOrganization(owner, 'Matrix Co', 'matrix-co')
    const editor = await h.call('/organization/create-role', {
      body: { organizationId: orgId, role: 'editor', permission: editorPermission },
      cookie: owner.cookie,
    })
    const scratch = await h.call('/organization/create-role', {
      body: { organizationId: orgId, role: 'scratch', permission: { team: ['update'] } },
      cookie: owner.cookie,
    })
    expect([editor.status, scratch.status], 'the owner creates the custom roles').toEqual([200, 200])
    actors.owner = owner
    for (const [role, name] of [
      ['admin', 'Adam Admin'],
      ['member', 'Mia Member'],
      ['editor', 'Eddie Editor'],
      ['member,editor', 'Pat Pair'],
    ] as const) {
      actors[role] = await h.signUp(name)
      const memberId = await h.join(orgId, owner, actors[role], role === 'admin' ? 'admin' : 'member')
      // The owner hands out the custom role as a string, and the pair as an array.
      const newRole = role === 'editor' ? 'editor' : role === 'member,editor' ? ['member', 'editor'] : undefined
      if (!newRole) continue
      const set = await h.call('/organization/update-member-role', {
        body: { organizationId: orgId, memberId, role: newRole },
        cookie: owner.cookie,
      })
      expect(set.status, `the owner gives ${name} the role ${role}: ${set.code}`).toBe(200)
    }
    tina = await h.signUp('Tina Target')
    tinaMemberId = await h.join(orgId, owner, tina)
    const team = await h.call<{ id: string }>('/organization/create-team', {
      body: { organizationId: orgId, name: 'Shared team' },
      cookie: owner.cookie,
    })
    sharedTeamId = team.body.id
  })
  afterAll(() => database.dispose())

  it('the definition names exactly the expected resources and actions', () => {
    expect(sorted(statements as Grants)).toEqual(sorted(everyAction))
  })

  it('stores a custom role and a pair of roles as the owner set them', async () => {
    for (const role of roles) {
      const stored = await h.membership(orgId, actors[role].id)
      expect(stored?.role, actors[role].name).toBe(role)
    }
  })

  it('has-permission answers every role × resource × action exactly as the matrix says', async () => {
    for (const role of roles) {
      for (const [resource, actions] of Object.entries(everyAction) as [Resource, readonly string[]][]) {
        for (const action of actions) {
          const answer = await h.call<{ success: boolean }>('/organization/has-permission', {
            body: { organizationId: orgId, permissions: { [resource]: [action] } },
            cookie: actors[role].cookie,
          })
          expect.soft(answer.status, `${role} asking about ${resource}:${action}`).toBe(200)
          expect.soft(answer.body?.success, `${role} may ${resource}:${action}`).toBe(may(role, resource, action))
        }
      }
    }
  })

  it('refuses a visitor without a session, on Better Auth and on tRPC', async () => {
    const answer = await h.call('/organization/has-permission', {
      body: { organizationId: orgId, permissions: { ac: ['read'] } },
    })
    expect(answer.status).toBe(401)
    const activity = await h.trpc('query', 'organizations.activity', undefined, {})
    expect(activity).toMatchObject({ status: 401, error: { code: 'UNAUTHORIZED' } })
  })

  /**
   * One real endpoint per action: it arranges what the attempt acts on, makes the attempt as the actor and reports
   * whether it happened (in the database, or for a read, in the answer). member:create has no HTTP endpoint (Better
   * Auth's add-member is server-only) and the apps' resources none here: has-permission covers them above.
   */
  const attempts: {
    resource: Resource
    action: string
    endpoint: string
    run(actor: Person, label: string): Promise<{ answer: Answer<unknown>; happened: boolean }>
  }[] = [
    {
      resource: 'organization',
      action: 'update',
      endpoint: '/organization/update',
      run: async (actor, label) => {
        const name = `Matrix Co (${label})`
        const answer = await h.call('/organization/update', {
          body: { organizationId: orgId, data: { name } },
          cookie: actor.cookie,
        })
        const [stored] = await db().select().from(organizations).where(eq(organizations.id, orgId))
        return { answer, happened: stored?.name === name }
      },
    },
    {
      resource: 'member',
      action: 'update',
      endpoint: '/organization/update-member-role',
      run: async (actor) => {
        await db().update(members).set({ role: 'member' }).where(eq(members.id, tinaMemberId))
        const answer = await h.call('/organization/update-member-role', {
          body: { organizationId: orgId, memberId: tinaMemberId, role: 'admin' },
          cookie: actor.cookie,
        })
        const happened = (await h.membership(orgId, tina.id))?.role === 'admin'
        await db().update(members).set({ role: 'member' }).where(eq(members.id, tinaMemberId))
        return { answer, happened }
      },
    },
    {
      resource: 'member',
      action: 'delete',
      endpoint: '/organization/remove-member',
      run: async (actor, label) => {
        const leaver = await h.signUp(`Leaver ${label}`)
        const memberId = await h.join(orgId, owner, leaver)
        const answer = await h.call('/organization/remove-member', {
          body: { organizationId: orgId, memberIdOrEmail: memberId },
          cookie: actor.cookie,
        })
        return { answer, happened: (await h.membership(orgId, leaver.id)) === undefined }
      },
    },
    {
      resource: 'invitation',
      action: 'create',
      endpoint: '/organization/invite-member',
      run: async (actor, label) => {
        const email = `guest-${label}@example.com`
        // A role inside every inviter's own (team:update): who may invite is tested here; which roles an inviter may
        // hand out (never more than they hold) is role-grants.test.ts's.
        const answer = await h.call('/organization/invite-member', {
          body: { organizationId: orgId, email, role: 'scratch' },
          cookie: actor.cookie,
        })
        const rows = await db()
          .select()
          .from(invitations)
          .where(and(eq(invitations.organizationId, orgId), eq(invitations.email, email)))
        return { answer, happened: rows.length === 1 }
      },
    },
    {
      resource: 'invitation',
      action: 'cancel',
      endpoint: '/organization/cancel-invitation',
      run: async (actor, label) => {
        const invitationId = await h.invite(owner, orgId, `cancel-${label}@example.com`)
        const answer = await h.call('/organization/cancel-invitation', { body: { invitationId }, cookie: actor.cookie })
        const [stored] = await db().select().from(invitations).where(eq(invitations.id, invitationId))
        return { answer, happened: stored?.status === 'canceled' }
      },
    },
    {
      resource: 'team',
      action: 'create',
      endpoint: '/organization/create-team',
      run: async (actor, label) => {
        const name = `Team of ${label}`
        const answer = await h.call('/organization/create-team', {
          body: { organizationId: orgId, name },
          cookie: actor.cookie,
        })
        const rows = await db()
          .select()
          .from(teams)
          .where(and(eq(teams.organizationId, orgId), eq(teams.name, name)))
        return { answer, happened: rows.length === 1 }
      },
    },
    {
      resource: 'team',
      action: 'update',
      endpoint: '/organization/update-team',
      run: async (actor, label) => {
        const name = `Renamed by ${label}`
        const answer = await h.call('/organization/update-team', {
          body: { teamId: sharedTeamId, data: { name, organizationId: orgId } },
          cookie: actor.cookie,
        })
        const [stored] = await db().select().from(teams).where(eq(teams.id, sharedTeamId))
        return { answer, happened: stored?.name === name }
      },
    },
    {
      resource: 'team',
      action: 'delete',
      endpoint: '/organization/remove-team',
      run: async (actor, label) => {
        const team = await h.call<{ id: string }>('/organization/create-team', {
          body: { organizationId: orgId, name: `Doomed ${label}` },
          cookie: owner.cookie,
        })
        const answer = await h.call('/organization/remove-team', {
          body: { organizationId: orgId, teamId: team.body.id },
          cookie: actor.cookie,
        })
        const rows = await db().select().from(teams).where(eq(teams.id, team.body.id))
        return { answer, happened: rows.length === 0 }
      },
    },
    {
      resource: 'ac',
      action: 'create',
      endpoint: '/organization/create-role',
      run: async (actor, label) => {
        const role = `made-by-${label}`
        const answer = await h.call('/organization/create-role', {
          body: { organizationId: orgId, role, permission: { team: ['update'] } },
          cookie: actor.cookie,
        })
        return { answer, happened: (await customRole(role)) !== undefined }
      },
    },
    {
      resource: 'ac',
      action: 'read',
      endpoint: '/organization/list-roles',
      run: async (actor) => {
        const answer = await h.call<{ role: string }[]>(`/organization/list-roles?organizationId=${orgId}`, {
          cookie: actor.cookie,
        })
        return { answer, happened: Array.isArray(answer.body) && answer.body.some((row) => row.role === 'editor') }
      },
    },
    {
      resource: 'ac',
      action: 'update',
      endpoint: '/organization/update-role',
      run: async (actor) => {
        const reset = { permission: JSON.stringify({ team: ['update'] }) }
        await db().update(organizationRoles).set(reset).where(eq(organizationRoles.role, 'scratch'))
        const answer = await h.call('/organization/update-role', {
          body: { organizationId: orgId, roleName: 'scratch', data: { permission: { team: ['update', 'create'] } } },
          cookie: actor.cookie,
        })
        const happened = (await customRole('scratch'))?.permission.includes('create') ?? false
        return { answer, happened }
      },
    },
    {
      resource: 'ac',
      action: 'delete',
      endpoint: '/organization/delete-role',
      run: async (actor, label) => {
        const role = `doomed-${label}`
        const created = await h.call('/organization/create-role', {
          body: { organizationId: orgId, role, permission: { team: ['update'] } },
          cookie: owner.cookie,
        })
        expect(created.status, `the owner creates ${role}`).toBe(200)
        const answer = await h.call('/organization/delete-role', {
          body: { organizationId: orgId, roleName: role },
          cookie: actor.cookie,
        })
        return { answer, happened: (await customRole(role)) === undefined }
      },
    },
  ]
  const customRole = async (role: string) =>
    (
      await db()
        .select()
        .from(organizationRoles)
        .where(and(eq(organizationRoles.organizationId, orgId), eq(organizationRoles.role, role)))
    )[0]

  it.each(attempts)('$endpoint lets exactly the roles granting $resource:$action do it', async (attempt) => {
    for (const role of roles) {
      const { answer, happened } = await attempt.run(actors[role], slugOf(role))
      const allowed = may(role, attempt.resource, attempt.action)
      const context = `${role} → ${attempt.endpoint} answered ${answer.status} ${answer.code ?? ''}`
      expect.soft(verdictOf(answer), context).toBe(allowed ? 'allowed' : 'refused')
      expect.soft(happened, `${context}; did it happen?`).toBe(allowed)
    }
  })

  it('organizations.activity answers the roles granting activity:read and refuses the others in the spec’s words', async () => {
    for (const role of roles) {
      const answer = await h.trpc<ActivityPage>('query', 'organizations.activity', actors[role].cookie, {})
      if (may(role, 'activity', 'read')) {
        expect.soft(answer.status, `${role} reads the log: ${answer.error?.message}`).toBe(200)
        expect.soft(answer.data?.items.length, `${role} sees entries`).toBeGreaterThan(0)
      } else {
        expect.soft(answer, `${role} is refused the log`).toMatchObject({
          status: 403,
          error: {
            code: 'FORBIDDEN',
            appCode: 'NOT_ALLOWED_TO_ACCESS_RESOURCE',
            message: 'You are not allowed to access resource: activity',
          },
        })
      }
    }
  })

  it('organizations.transferOwnership is the owner’s alone; the owner can hand it over and take it back', async () => {
    const adam = actors.admin
    const adamMember = await h.membership(orgId, adam.id)
    const before = await db().select().from(members).where(eq(members.organizationId, orgId))
    for (const role of roles.filter((role) => role !== 'owner')) {
      const answer = await h.trpc('mutation', 'organizations.transferOwnership', actors[role].cookie, {
        memberId: actors[role] === adam ? tinaMemberId : adamMember?.id,
      })
      expect.soft(answer, `${role} may not transfer ownership`).toMatchObject({
        status: 403,
        error: {
          appCode: 'NOT_ALLOWED_TO_ACCESS_RESOURCE',
          message: 'You are not allowed to access resource: organization',
        },
      })
    }
    expect(await db().select().from(members).where(eq(members.organizationId, orgId))).toEqual(before)

    const handedOver = await h.trpc('mutation', 'organizations.transferOwnership', owner.cookie, {
      memberId: adamMember?.id,
    })
    expect(handedOver, handedOver.error?.message).toMatchObject({ status: 200, data: { transferred: true } })
    expect((await h.membership(orgId, adam.id))?.role).toBe('owner')
    expect((await h.membership(orgId, owner.id))?.role).toBe('admin')

    const ownerMember = await h.membership(orgId, owner.id)
    const back = await h.trpc('mutation', 'organizations.transferOwnership', adam.cookie, { memberId: ownerMember?.id })
    expect(back.status, back.error?.message).toBe(200)
    expect((await h.membership(orgId, owner.id))?.role).toBe('owner')
    expect((await h.membership(orgId, adam.id))?.role).toBe('admin')
  })

  // Last: the owner's attempt deletes the organization everyone above works in.
  it('/organization/delete is refused to every role but owner, and the owner’s delete removes the memberships', async () => {
    for (const role of [...roles.filter((role) => role !== 'owner'), 'owner' as const]) {
      const answer = await h.call('/organization/delete', {
        body: { organizationId: orgId },
        cookie: actors[role].cookie,
      })
      const allowed = may(role, 'organization', 'delete')
      const exists = (await db().select().from(organizations).where(eq(organizations.id, orgId))).length === 1
      expect
        .soft(verdictOf(answer), `${role} → /organization/delete answered ${answer.status} ${answer.code}`)
        .toBe(allowed ? 'allowed' : 'refused')
      expect.soft(exists, `after ${role}’s attempt the organization still exists`).toBe(!allowed)
    }
    expect(await db().select().from(members).where(eq(members.organizationId, orgId))).toEqual([])
  })
})
