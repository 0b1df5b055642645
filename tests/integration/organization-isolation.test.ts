import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { organizationActivity } from '#/server/db/schema'
import { type ActivityPage, type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

/**
 * Ann owns organization A and Ben owns organization B (with Bea, a team, a custom role and a pending invitation).
 * Whatever Ann sends naming B's ids, every endpoint refuses and nothing of B changes.
 */
describe.each(coreEngines)('one organization’s member against another organization on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let ann: Person
  let ben: Person
  let bea: Person
  let orgA: string
  let orgB: string
  const b = { beaMemberId: '', benMemberId: '', teamId: '', invitationId: '', roleId: '' }
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    ann = await h.signUp('Ann Alpha')
    orgA = await h.createOrganization(ann, 'Org A', 'org-a')
    await h.call('/organization/create-team', { body: { name: 'A team' }, cookie: ann.cookie })
    await h.invite(ann, orgA, 'friend-of-a@example.com')

    ben = await h.signUp('Ben Bravo')
    bea = await h.signUp('Bea Bravo')
    orgB = await h.createOrganization(ben, 'Org B', 'org-b')
    b.beaMemberId = await h.join(orgB, ben, bea, 'admin')
    b.benMemberId = (await h.membership(orgB, ben.id))?.id ?? ''
    const team = await h.call<{ id: string }>('/organization/create-team', {
      body: { organizationId: orgB, name: 'B team' },
      cookie: ben.cookie,
    })
    b.teamId = team.body.id
    const added = await h.call('/organization/add-team-member', {
      body: { organizationId: orgB, teamId: b.teamId, userId: bea.id },
      cookie: ben.cookie,
    })
    expect(added.status, `Ben adds Bea to the B team: ${added.code}`).toBe(200)
    b.invitationId = await h.invite(ben, orgB, 'carol@example.com')
    const role = await h.call<{ roleData: { id: string } }>('/organization/create-role', {
      body: { organizationId: orgB, role: 'b-role', permission: { team: ['update'] } },
      cookie: ben.cookie,
    })
    b.roleId = role.body.roleData.id
  })
  afterAll(() => database.dispose())

  /** Every organization endpoint, each aimed at B: by id in the body or query, or by B's member, team or role. */
  const attempts = (): [string, unknown?][] => [
    [`/organization/get-full-organization?organizationId=${orgB}`],
    ['/organization/get-full-organization?organizationSlug=org-b'],
    [`/organization/get-organization?organizationId=${orgB}`],
    [`/organization/list-members?organizationId=${orgB}`],
    [`/organization/list-invitations?organizationId=${orgB}`],
    [`/organization/get-invitation?id=${b.invitationId}`],
    [`/organization/list-teams?organizationId=${orgB}`],
    [`/organization/list-team-members?teamId=${b.teamId}`],
    [`/organization/list-user-teams?organizationId=${orgB}`],
    [`/organization/list-user-teams?organizationId=${orgB}&userId=${bea.id}`],
    [`/organization/list-roles?organizationId=${orgB}`],
    [`/organization/get-role?organizationId=${orgB}&roleName=b-role`],
    [`/organization/get-active-member-role?organizationId=${orgB}`],
    [`/organization/get-active-member-role?organizationId=${orgB}&userId=${ben.id}`],
    ['/organization/update', { organizationId: orgB, data: { name: 'Hijacked', slug: 'hijacked' } }],
    ['/organization/delete', { organizationId: orgB }],
    ['/organization/set-active', { organizationId: orgB }],
    ['/organization/set-active', { organizationSlug: 'org-b' }],
    ['/organization/invite-member', { organizationId: orgB, email: 'spy@example.com', role: 'admin' }],
    // Into A, but naming B's team or B's custom role.
    ['/organization/invite-member', { organizationId: orgA, email: 'x@example.com', role: 'member', teamId: b.teamId }],
    ['/organization/invite-member', { organizationId: orgA, email: 'y@example.com', role: 'b-role' }],
    ['/organization/update-member-role', { memberId: b.beaMemberId, role: 'member' }],
    ['/organization/update-member-role', { organizationId: orgB, memberId: b.beaMemberId, role: 'member' }],
    ['/organization/update-member-role', { organizationId: orgB, memberId: b.benMemberId, role: 'member' }],
    ['/organization/remove-member', { memberIdOrEmail: b.beaMemberId }],
    ['/organization/remove-member', { organizationId: orgB, memberIdOrEmail: b.beaMemberId }],
    ['/organization/remove-member', { organizationId: orgB, memberIdOrEmail: bea.email }],
    ['/organization/cancel-invitation', { invitationId: b.invitationId }],
    ['/organization/accept-invitation', { invitationId: b.invitationId }],
    ['/organization/reject-invitation', { invitationId: b.invitationId }],
    ['/organization/leave', { organizationId: orgB }],
    ['/organization/create-team', { organizationId: orgB, name: 'Spy team' }],
    ['/organization/update-team', { teamId: b.teamId, data: { name: 'Hijacked' } }],
    ['/organization/update-team', { teamId: b.teamId, data: { name: 'Hijacked', organizationId: orgB } }],
    ['/organization/remove-team', { teamId: b.teamId }],
    ['/organization/remove-team', { organizationId: orgB, teamId: b.teamId }],
    ['/organization/add-team-member', { teamId: b.teamId, userId: ann.id }],
    ['/organization/add-team-member', { organizationId: orgB, teamId: b.teamId, userId: ann.id }],
    ['/organization/remove-team-member', { teamId: b.teamId, userId: bea.id }],
    ['/organization/remove-team-member', { organizationId: orgB, teamId: b.teamId, userId: bea.id }],
    ['/organization/set-active-team', { teamId: b.teamId }],
    ['/organization/create-role', { organizationId: orgB, role: 'spy', permission: { team: ['update'] } }],
    ['/organization/update-role', { organizationId: orgB, roleName: 'b-role', data: { permission: { ac: ['read'] } } }],
    ['/organization/update-role', { roleId: b.roleId, data: { roleName: 'renamed' } }],
    ['/organization/delete-role', { organizationId: orgB, roleName: 'b-role' }],
    ['/organization/delete-role', { roleId: b.roleId }],
    ['/organization/has-permission', { organizationId: orgB, permissions: { organization: ['delete'] } }],
  ]

  it('refuses every organization endpoint Ann aims at B, and nothing of B changes', async () => {
    const before = await h.snapshot(orgB)
    for (const [path, body] of attempts()) {
      // Each attempt starts from Ann working in A, so the ones without an organization id test A against B's ids.
      await h.call('/organization/set-active', { body: { organizationId: orgA }, cookie: ann.cookie })
      const answer = await h.call(path, { body, cookie: ann.cookie })
      const refused = answer.status >= 400 && answer.status < 500
      expect
        .soft(refused, `${path} ${JSON.stringify(body ?? '')} answered ${answer.status} ${answer.code ?? ''}`)
        .toBe(true)
    }
    expect(await h.snapshot(orgB)).toEqual(before)
    const listed = await h.call<{ id: string }[]>('/organization/list', { cookie: ann.cookie })
    expect(listed.body.map((organization) => organization.id)).not.toContain(orgB)
  })

  it('tRPC works only on the session’s organization: Ann cannot hand B’s ownership to anyone', async () => {
    await h.call('/organization/set-active', { body: { organizationId: orgA }, cookie: ann.cookie })
    const before = await h.snapshot(orgB)
    for (const memberId of [b.beaMemberId, b.benMemberId]) {
      const transfer = await h.trpc('mutation', 'organizations.transferOwnership', ann.cookie, { memberId })
      expect(transfer, `transferring to B’s member ${memberId}`).toMatchObject({
        status: 404,
        error: { appCode: 'MEMBER_NOT_FOUND' },
      })
    }
    expect(await h.snapshot(orgB)).toEqual(before)
  })

  it('a refused switch to B leaves Ann working in A, and the activity log shows A’s entries only', async () => {
    await h.call('/organization/set-active', { body: { organizationId: orgA }, cookie: ann.cookie })
    const refused = await h.call('/organization/set-active', { body: { organizationId: orgB }, cookie: ann.cookie })
    expect(refused).toMatchObject({ status: 403, code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION' })
    // Better Auth would clear the active organization before refusing; organization-checks.ts refuses first.
    expect(await h.activeOrganizationOf(ann), 'Ann still works in A').toBe(orgA)
    const log = await h.trpc<ActivityPage>('query', 'organizations.activity', ann.cookie, {})
    expect(log.status, `${log.error?.message} (${log.error?.appCode})`).toBe(200)
    const entriesOfA = await db()
      .select()
      .from(organizationActivity)
      .where(eq(organizationActivity.organizationId, orgA))
    expect(log.data?.items.map((item) => item.id).sort()).toEqual(entriesOfA.map((entry) => entry.id).sort())
  })
})
