import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox } from '#/server/db/schema'
import { runMaintenanceTasks } from '#/server/maintenance'
import { testOrigin } from './auth-requests'
import { type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

// Without SMTP every email is kept in the outbox (`held`): what Console → System shows app admins in place of a mailbox.
delete process.env.SMTP_URL

interface KeptPage {
  items: { id: number; to: string; subject: string; createdAt: Date }[]
  total: number
  retentionDays: number
}
interface KeptEmail {
  id: number
  to: string
  subject: string
  text: string
  html: string
  createdAt: Date
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000)

describe.each(coreEngines)('emails kept without SMTP, read in Console → System, on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  const db = () => database.connection.db
  let admin: Person
  let otherOwner: Person
  let member: Person
  let chinese: Person

  const keptTo = async (person: Person) =>
    (await h.trpc<KeptPage>('query', 'system.keptEmails', admin.cookie, { page: 1, limit: 100 })).data?.items.filter(
      (email) => email.to === person.email,
    ) ?? []

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    // The first account is the app admin; the others are an organization's owner and one of its members.
    admin = await h.signUp('Kept Admin')
    otherOwner = await h.signUp('Kept Owner')
    const organizationId = await h.createOrganization(otherOwner, 'Kept Library', 'kept-library')
    member = await h.signUp('Kept Member')
    await h.join(organizationId, otherOwner, member)
    chinese = await h.signUp('Kept Zhou', { referer: `${testOrigin}/zh/sign-up` })
  })
  afterAll(() => database.dispose())

  it('an app admin lists the kept emails, newest first, and reads one whole, in the language it was sent in', async () => {
    const page = await h.trpc<KeptPage>('query', 'system.keptEmails', admin.cookie, { page: 1, limit: 10 })
    expect(page.status, page.error?.message).toBe(200)
    const held = await db().select().from(emailOutbox).where(eq(emailOutbox.status, 'held'))
    expect(page.data?.total, 'every email written without SMTP is counted').toBe(held.length)
    expect(page.data?.retentionDays).toBe(7)
    const times = page.data?.items.map((email) => email.createdAt.getTime()) ?? []
    expect(times, 'newest first').toEqual([...times].sort((a, b) => b - a))
    expect(page.data?.items[0]?.to, 'the last sign-up’s email is on top').toBe(chinese.email)

    const memberEmails = await keptTo(member)
    expect(memberEmails.map((email) => email.subject).sort()).toEqual([
      'Confirm your email for Hatch',
      'Kept Owner invited you to Kept Library on Hatch',
    ])
    const english = memberEmails.find((email) => email.subject === 'Confirm your email for Hatch')
    const opened = await h.trpc<KeptEmail>('query', 'system.keptEmail', admin.cookie, { id: english?.id })
    expect(opened.status).toBe(200)
    expect(opened.data?.to).toBe(member.email)
    expect(opened.data?.html, 'the HTML as sent, with its link').toMatch(
      /<a href="[^"]*\/api\/auth\/verify-email\?token=/,
    )
    expect(opened.data?.text).toContain('Hello Kept Member,')
    expect(opened.data?.text).toContain('/api/auth/verify-email?token=')

    const [zh] = await keptTo(chinese)
    const openedZh = await h.trpc<KeptEmail>('query', 'system.keptEmail', admin.cookie, { id: zh?.id })
    expect(openedZh.data?.subject).toBe('请确认你在 Hatch 的邮箱')
    expect(openedZh.data?.text).toContain('Kept Zhou，你好：')
  })

  it('pages through the kept emails', async () => {
    const all = await h.trpc<KeptPage>('query', 'system.keptEmails', admin.cookie, { page: 1, limit: 100 })
    const second = await h.trpc<KeptPage>('query', 'system.keptEmails', admin.cookie, { page: 2, limit: 2 })
    expect(second.data?.items.map((email) => email.id)).toEqual(all.data?.items.slice(2, 4).map((email) => email.id))
    const refused = await h.trpc('query', 'system.keptEmails', admin.cookie, { page: 0, limit: 1000 })
    expect(refused.status, 'a page out of range is a clear 400, not a 500').toBe(400)
  })

  it('reads only kept emails: one queued or sent through SMTP is not found', async () => {
    const [sent] = await db()
      .insert(emailOutbox)
      .values({ to: 'x@example.com', subject: 'Sent', text: 't', html: '<p>t</p>', status: 'sent', sentAt: new Date() })
      .returning({ id: emailOutbox.id })
    const answer = await h.trpc('query', 'system.keptEmail', admin.cookie, { id: sent?.id })
    expect(answer).toMatchObject({ status: 404, error: { appCode: 'KEPT_EMAIL_NOT_FOUND' } })
    const unknown = await h.trpc('query', 'system.keptEmail', admin.cookie, { id: 2_000_000_000 })
    expect(unknown).toMatchObject({ status: 404, error: { appCode: 'KEPT_EMAIL_NOT_FOUND' } })
    expect((await h.trpc('query', 'system.keptEmail', admin.cookie, { id: -1 })).status).toBe(400)
  })

  it('no one but an app admin lists, reads or deletes them: not a member, not another organization’s owner', async () => {
    const kept = await keptTo(member)
    const [one] = kept
    for (const [who, person] of [
      ['a member', member],
      ['another organization’s owner', otherOwner],
    ] as const) {
      const list = await h.trpc('query', 'system.keptEmails', person.cookie, { page: 1, limit: 10 })
      expect(list, `${who} lists`).toMatchObject({ status: 403, error: { appCode: 'APP_ADMIN_ONLY' } })
      expect(list.data).toBeUndefined()
      const read = await h.trpc('query', 'system.keptEmail', person.cookie, { id: one?.id })
      expect(read, `${who} reads`).toMatchObject({ status: 403, error: { appCode: 'APP_ADMIN_ONLY' } })
      const remove = await h.trpc('mutation', 'system.deleteKeptEmails', person.cookie)
      expect(remove.status, `${who} deletes`).toBe(403)
    }
    expect((await h.trpc('query', 'system.keptEmail', undefined, { id: one?.id })).status, 'anonymous').toBe(401)
    expect(await keptTo(member), 'nothing was deleted').toHaveLength(kept.length)
  })

  it('the hourly maintenance deletes kept emails older than 7 days, and never queued, sent or dead ones', async () => {
    const row = (subject: string, status: 'held' | 'queued' | 'sent' | 'dead', createdAt: Date) => ({
      to: 'old@example.com',
      subject,
      text: subject,
      html: `<p>${subject}</p>`,
      status,
      createdAt,
    })
    await db()
      .insert(emailOutbox)
      .values([
        row('held 8 days', 'held', daysAgo(8)),
        row('held 6 days', 'held', daysAgo(6)),
        row('queued 8 days', 'queued', daysAgo(8)),
        row('sent 8 days', 'sent', daysAgo(8)),
        row('dead 8 days', 'dead', daysAgo(8)),
      ])
    await runMaintenanceTasks(db())
    const left = await db()
      .select({ subject: emailOutbox.subject })
      .from(emailOutbox)
      .where(eq(emailOutbox.to, 'old@example.com'))
    expect(left.map((email) => email.subject).sort()).toEqual([
      'dead 8 days',
      'held 6 days',
      'queued 8 days',
      'sent 8 days',
    ])
  })

  it('an app admin deletes every kept email at once; queued and sent mail stays', async () => {
    const before = await db().select().from(emailOutbox)
    const held = before.filter((email) => email.status === 'held').length
    expect(held).toBeGreaterThan(0)
    const removed = await h.trpc<{ deleted: number }>('mutation', 'system.deleteKeptEmails', admin.cookie)
    expect(removed.data).toEqual({ deleted: held })
    const page = await h.trpc<KeptPage>('query', 'system.keptEmails', admin.cookie, { page: 1, limit: 10 })
    expect(page.data).toMatchObject({ items: [], total: 0 })
    expect((await db().select().from(emailOutbox)).length).toBe(before.length - held)
  })
})
