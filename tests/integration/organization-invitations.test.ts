import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  invitationEmailsPerAddress,
  invitationEmailsPerOrganization,
  invitationEmailsPerRecipient,
} from '#/features/organizations/server/invitation-email-limits'
import { authErrorMessages } from '#/lib/auth-error-messages'
import { describeAuthError } from '#/lib/auth-errors'
import { authForDatabase } from '#/server/auth/auth'
import { emailOutbox, invitations, members, rateLimits } from '#/server/db/schema'
import { authRequest, testOrigin } from './auth-requests'
import { type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

interface Preview {
  status: string
  email: string
  role: string
  organizationName: string
  inviterName: string
}

describe.each(coreEngines)('invitations on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let iris: Person
  let orgId: string
  const db = () => database.connection.db

  const preview = async (id: string) =>
    (await h.trpc<Preview | null>('query', 'organizations.invitationPreview', undefined, { id })).data
  const accept = (person: Person, invitationId: string) =>
    h.call('/organization/accept-invitation', { body: { invitationId }, cookie: person.cookie })
  const membersOf = (person: Person) =>
    db()
      .select()
      .from(members)
      .where(and(eq(members.organizationId, orgId), eq(members.userId, person.id)))
  const invitationEmailsTo = async (address: string) =>
    (await db().select().from(emailOutbox).where(eq(emailOutbox.to, address))).filter((email) =>
      email.text.includes('/accept-invitation/'),
    )
  const invitationRow = async (id: string) => (await db().select().from(invitations).where(eq(invitations.id, id)))[0]

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    iris = await h.signUp('Iris Inviter')
    orgId = await h.createOrganization(iris, 'Invites Co', 'invites-co')
  })
  afterAll(() => database.dispose())

  it('an invitee signs up with the invited address, accepts, and works in the organization with the invited role', async () => {
    const invitationId = await h.invite(iris, orgId, 'nina@example.com', 'admin')
    expect(await preview(invitationId)).toMatchObject({
      status: 'pending',
      email: 'nina@example.com',
      role: 'admin',
      organizationName: 'Invites Co',
      inviterName: 'Iris Inviter',
    })
    const nina = await h.signUp('Nina New', { email: 'nina@example.com' })
    // Anyone can sign up with an address; only its owner, once the address is confirmed, answers the invitation.
    const unconfirmed = await accept(nina, invitationId)
    expect([unconfirmed.status, unconfirmed.code]).toEqual([
      403,
      'EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION',
    ])
    const declinedUnconfirmed = await h.call('/organization/reject-invitation', {
      body: { invitationId },
      cookie: nina.cookie,
    })
    expect(declinedUnconfirmed.status).toBe(403)
    expect(await membersOf(nina)).toEqual([])
    expect((await invitationRow(invitationId))?.status).toBe('pending')
    await h.confirmEmail(nina)
    const accepted = await accept(nina, invitationId)
    expect(accepted.status, `accepting: ${accepted.code}`).toBe(200)
    expect((await membersOf(nina)).map((member) => member.role)).toEqual(['admin'])
    expect(await h.activeOrganizationOf(nina), 'the session moves to the organization joined').toBe(orgId)
    expect(await preview(invitationId)).toMatchObject({ status: 'accepted' })

    const twice = await accept(nina, invitationId)
    expect(twice).toMatchObject({ status: 400, code: 'INVITATION_NOT_FOUND' })
    expect(await membersOf(nina), 'accepting twice adds no second membership').toHaveLength(1)
  })

  it('an expired invitation cannot be accepted, and its preview says expired', async () => {
    const invitationId = await h.invite(iris, orgId, 'late@example.com')
    await db()
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(invitations.id, invitationId))
    expect(await preview(invitationId)).toMatchObject({ status: 'expired' })
    const late = await h.signUp('Larry Late', { email: 'late@example.com' })
    expect(await accept(late, invitationId)).toMatchObject({ status: 400, code: 'INVITATION_NOT_FOUND' })
    expect(await membersOf(late)).toEqual([])
  })

  it('a cancelled invitation cannot be accepted, and its preview says canceled', async () => {
    const invitationId = await h.invite(iris, orgId, 'cancelled@example.com')
    const cancel = await h.call('/organization/cancel-invitation', { body: { invitationId }, cookie: iris.cookie })
    expect(cancel.status).toBe(200)
    expect(await preview(invitationId)).toMatchObject({ status: 'canceled' })
    const cancelled = await h.signUp('Cora Cancelled', { email: 'cancelled@example.com' })
    expect(await accept(cancelled, invitationId)).toMatchObject({ status: 400, code: 'INVITATION_NOT_FOUND' })
    expect(await membersOf(cancelled)).toEqual([])
  })

  it('someone signed in with another address can neither read, accept nor reject the invitation', async () => {
    const invitationId = await h.invite(iris, orgId, 'right@example.com')
    const wrong = await h.signUp('Walt Wrong', { email: 'wrong@example.com' })
    const notYours = { status: 403, code: 'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION' }
    expect(await accept(wrong, invitationId)).toMatchObject(notYours)
    expect(
      await h.call('/organization/reject-invitation', { body: { invitationId }, cookie: wrong.cookie }),
    ).toMatchObject(notYours)
    expect(await h.call(`/organization/get-invitation?id=${invitationId}`, { cookie: wrong.cookie })).toMatchObject(
      notYours,
    )
    expect(await membersOf(wrong)).toEqual([])
    expect((await invitationRow(invitationId))?.status).toBe('pending')
  })

  it('the email goes out in the language chosen for the invitee, linking to /{locale}/accept-invitation/{id}', async () => {
    const chineseId = await h.invite(iris, orgId, 'zhang@example.com', 'member', { locale: 'zh' })
    const [chinese] = await invitationEmailsTo('zhang@example.com')
    expect(chinese?.subject).toContain('邀请')
    expect(chinese?.subject).toContain('Invites Co')
    expect(chinese?.text).toContain(`${testOrigin}/zh/accept-invitation/${chineseId}`)
    expect((await invitationRow(chineseId))?.locale).toBe('zh')

    const englishId = await h.invite(iris, orgId, 'emma@example.com')
    const [english] = await invitationEmailsTo('emma@example.com')
    expect(english?.subject).toBe('Iris Inviter invited you to Invites Co on Hatch')
    expect(english?.text).toContain(`${testOrigin}/en/accept-invitation/${englishId}`)
  })

  it('inviting the same address again is refused unless it is a resend, which emails again and keeps one invitation', async () => {
    await h.invite(iris, orgId, 'again@example.com')
    const again = await h.call('/organization/invite-member', {
      body: { organizationId: orgId, email: 'again@example.com', role: 'member' },
      cookie: iris.cookie,
    })
    expect(again).toMatchObject({ status: 400, code: 'USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION' })
    const resend = await h.call('/organization/invite-member', {
      body: { organizationId: orgId, email: 'again@example.com', role: 'member', resend: true },
      cookie: iris.cookie,
    })
    expect(resend.status, `resending: ${resend.code}`).toBe(200)
    expect(await invitationEmailsTo('again@example.com')).toHaveLength(2)
    const pending = await db()
      .select()
      .from(invitations)
      .where(and(eq(invitations.email, 'again@example.com'), eq(invitations.status, 'pending')))
    expect(pending).toHaveLength(1)
  })

  describe('invitation emails are limited per address and per organization', () => {
    const inviteAnswer = async (person: Person, body: Record<string, unknown>) => {
      const response = await authRequest(authForDatabase(db()), '/organization/invite-member', {
        body: { role: 'member', ...body },
        cookie: person.cookie,
        ip: `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
      })
      const json = (await response.json()) as { code?: string; message?: string }
      return {
        status: response.status,
        code: json.code,
        message: json.message,
        retryAfter: response.headers.get('retry-after'),
      }
    }
    const expectLimited = (answer: Awaited<ReturnType<typeof inviteAnswer>>, code: string) => {
      expect([answer.status, answer.code]).toEqual([429, code])
      const seconds = Number(answer.retryAfter)
      expect(seconds, 'Retry-After says when to try again').toBeGreaterThan(0)
      expect(seconds).toBeLessThanOrEqual(invitationEmailsPerRecipient.windowMs / 1000)
      // The page shows the code's own words, not the generic "too many requests".
      expect(describeAuthError({ status: 429, code: answer.code })).toBe(
        (authErrorMessages as Record<string, () => string>)[code]?.(),
      )
    }

    it('mails one address at most a few times an hour from one organization, resends included', async () => {
      const address = 'flooded@example.com'
      const allowed = invitationEmailsPerRecipient.limit
      expect((await inviteAnswer(iris, { organizationId: orgId, email: address })).status).toBe(200)
      // A repeat without `resend` is refused without an email, so it spends nothing.
      const repeat = await inviteAnswer(iris, { organizationId: orgId, email: address })
      expect(repeat.code).toBe('USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION')
      for (let sent = 1; sent < allowed; sent++) {
        const resend = await inviteAnswer(iris, { organizationId: orgId, email: address, resend: true })
        expect(resend.status, `resend ${sent}: ${resend.code}`).toBe(200)
      }
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          inviteAnswer(iris, { organizationId: orgId, email: address.toUpperCase(), resend: true }),
        ),
      )
      for (const answer of answers) expectLimited(answer, 'INVITATION_EMAILS_TO_ADDRESS_LIMITED')
      expect(await invitationEmailsTo(address)).toHaveLength(allowed)
      const pending = await db().select().from(invitations).where(eq(invitations.email, address))
      expect(pending.map((invitation) => invitation.organizationId)).toEqual([orgId])
    })

    it('lets another organization invite an address that a spammer’s organization used up', async () => {
      const victim = 'ceo@customer.example'
      const sam = await h.signUp('Sam Spammer')
      const spam = await h.createOrganization(sam, 'Spam Co', 'spam-co')
      expect((await inviteAnswer(sam, { organizationId: spam, email: victim })).status).toBe(200)
      for (let sent = 1; sent < invitationEmailsPerRecipient.limit; sent++) {
        expect((await inviteAnswer(sam, { organizationId: spam, email: victim, resend: true })).status).toBe(200)
      }
      expectLimited(
        await inviteAnswer(sam, { organizationId: spam, email: victim, resend: true }),
        'INVITATION_EMAILS_TO_ADDRESS_LIMITED',
      )
      const genuine = await inviteAnswer(iris, { organizationId: orgId, email: victim })
      expect(genuine.status, `the genuine organization's invitation: ${genuine.code}`).toBe(200)
      expect(await invitationEmailsTo(victim)).toHaveLength(invitationEmailsPerRecipient.limit + 1)
    })

    it('caps the invitation emails one address gets from all organizations together', async () => {
      const address = 'popular@example.com'
      // The hour's emails to this address from every organization are used up (whichever servers counted them).
      await db()
        .insert(rateLimits)
        .values({
          key: `invitation-emails:to:${address}`,
          count: invitationEmailsPerAddress.limit,
          windowStartedAt: new Date(),
        })
      const fresh = await h.createOrganization(iris, 'Fresh Co', 'fresh-co')
      expectLimited(
        await inviteAnswer(iris, { organizationId: fresh, email: address }),
        'INVITATION_EMAILS_TO_ADDRESS_LIMITED',
      )
      expect(await invitationEmailsTo(address)).toEqual([])
      // The refusal spent nothing of the organization's own allowance.
      const [own] = await db()
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `invitation-emails:from:${fresh}`))
      expect(own?.count ?? 0).toBe(0)
    })

    it('counts the fresh invitation Better Auth sends in place of an expired one', async () => {
      const address = 'expiring@example.com'
      for (let sent = 0; sent < invitationEmailsPerRecipient.limit; sent++) {
        const answer = await inviteAnswer(iris, { organizationId: orgId, email: address })
        expect(answer.status, `invitation ${sent + 1}: ${answer.code}`).toBe(200)
        await db()
          .update(invitations)
          .set({ expiresAt: new Date(Date.now() - 60_000) })
          .where(eq(invitations.email, address))
      }
      expectLimited(
        await inviteAnswer(iris, { organizationId: orgId, email: address }),
        'INVITATION_EMAILS_TO_ADDRESS_LIMITED',
      )
      expect(await invitationEmailsTo(address)).toHaveLength(invitationEmailsPerRecipient.limit)
    })

    it('spends nothing on an invitation Better Auth refuses after the count (the address is already a member)', async () => {
      const molly = await h.signUp('Molly Member', { email: 'molly@example.com' })
      await h.join(orgId, iris, molly)
      for (let attempt = 0; attempt < invitationEmailsPerRecipient.limit + 2; attempt++) {
        for (const resend of [false, true]) {
          const refused = await inviteAnswer(iris, { organizationId: orgId, email: 'molly@example.com', resend })
          expect([refused.status, refused.code], `attempt ${attempt + 1}`).toEqual([
            400,
            'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
          ])
        }
      }
      const counters = await db()
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `invitation-emails:${orgId}:to:molly@example.com`))
      expect(
        counters.map((counter) => counter.count),
        'only the invitation Molly accepted',
      ).toEqual([1])
    })

    it('lets an organization send a team’s worth of invitations an hour, and no more', async () => {
      const busy = await h.createOrganization(iris, 'Busy Co', 'busy-co')
      // The hour's invitations are used up, as the shared counter records them (whichever server counted).
      await db()
        .insert(rateLimits)
        .values({
          key: `invitation-emails:from:${busy}`,
          count: invitationEmailsPerOrganization.limit,
          windowStartedAt: new Date(),
        })
      const refused = await inviteAnswer(iris, { organizationId: busy, email: 'one.more@example.com' })
      expectLimited(refused, 'INVITATION_EMAILS_FROM_ORGANIZATION_LIMITED')
      expect(await db().select().from(invitations).where(eq(invitations.organizationId, busy))).toEqual([])
      expect(await invitationEmailsTo('one.more@example.com')).toEqual([])
    })

    it('spends nobody’s allowance on requests that are refused anyway', async () => {
      const mallory = await h.signUp('Mallory Member')
      await h.join(orgId, iris, mallory)
      for (let attempt = 0; attempt < invitationEmailsPerRecipient.limit + 2; attempt++) {
        const refused = await inviteAnswer(mallory, { organizationId: orgId, email: 'target@example.com' })
        expect(refused.status, 'a member may not invite').toBe(403)
      }
      expect((await inviteAnswer(iris, { organizationId: orgId, email: 'target@example.com' })).status).toBe(200)
      expect(await invitationEmailsTo('target@example.com')).toHaveLength(1)
    })
  })

  it('refuses an invalid address or an unknown language, and neither stores nor sends anything', async () => {
    const before = await db().select().from(invitations)
    for (const [body, code] of [
      [{ email: 'not-an-email', role: 'member' }, 'INVALID_EMAIL'],
      [{ email: 'fine@example.com', role: 'member', locale: 'fr' }, 'INVALID_LOCALE'],
    ] as const) {
      const answer = await h.call('/organization/invite-member', {
        body: { organizationId: orgId, ...body },
        cookie: iris.cookie,
      })
      expect(answer, JSON.stringify(body)).toMatchObject({ status: 400, code })
    }
    expect(await db().select().from(invitations)).toEqual(before)
    expect(await invitationEmailsTo('fine@example.com')).toEqual([])
  })
})
