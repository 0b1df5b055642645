import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions } from '#/server/db/schema'
import { type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

interface MemberPage {
  items: { id: string; userId: string; name: string; email: string; role: string; createdAt: Date }[]
  total: number
  nextCursor?: string
  previousCursor?: string
}
interface ActivityListPage {
  items: { id: number; action: string; actorName: string; createdAt: Date }[]
  total: number
  nextCursor?: string
  previousCursor?: string
}

describe.each(coreEngines)('the members and activity lists on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let organizationId: string
  let ada: Person
  let charles: Person
  let mary: Person
  let xiaoming: Person
  let olivia: Person
  const db = () => database.connection.db

  const members = (person: Person | undefined, input: Record<string, unknown> = {}) =>
    h.trpc<MemberPage>('query', 'organizations.members', person?.cookie, input)
  const activity = (person: Person | undefined, input: Record<string, unknown> = {}) =>
    h.trpc<ActivityListPage>('query', 'organizations.activity', person?.cookie, input)
  const names = (page: { data?: MemberPage }) => page.data?.items.map((member) => member.name)

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    ada = await h.signUp('Ada Lovelace')
    charles = await h.signUp('Charles Babbage')
    mary = await h.signUp('Mary Somerville')
    xiaoming = await h.signUp('王小明', { email: 'xiaoming@example.com' })
    olivia = await h.signUp('Olivia Outsider')
    organizationId = await h.createOrganization(ada, 'Analytical Engines', 'analytical-engines')
    // In the order they join: Ada (the owner), Charles (two roles), 王小明, Mary.
    await h.join(organizationId, ada, charles, ['admin', 'member'])
    await h.join(organizationId, ada, xiaoming)
    await h.join(organizationId, ada, mary)
  })
  afterAll(() => database.dispose())

  it('refuses a signed-out caller, and a session pointing at an organization its user is not in', async () => {
    expect((await members(undefined)).error?.code).toBe('UNAUTHORIZED')
    // Olivia works in her own workspace, and sees only its one member.
    expect(names(await members(olivia))).toEqual(['Olivia Outsider'])
    // A session still naming this organization (as after being removed from it) is refused, not answered.
    await db().update(sessions).set({ activeOrganizationId: organizationId }).where(eq(sessions.userId, olivia.id))
    const refused = await members(olivia)
    expect(refused.error).toMatchObject({ code: 'FORBIDDEN', appCode: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION' })
    expect(refused.data).toBeUndefined()
  })

  it('lets every member see the list, by default in the order people joined', async () => {
    for (const person of [ada, charles, mary, xiaoming]) {
      const page = await members(person)
      expect(page.error, person.name).toBeUndefined()
      expect(names(page), person.name).toEqual(['Ada Lovelace', 'Charles Babbage', '王小明', 'Mary Somerville'])
    }
    const adaRow = (await members(mary)).data?.items[0]
    expect(adaRow).toMatchObject({ userId: ada.id, email: ada.email, role: 'owner' })
    expect(adaRow?.createdAt).toBeInstanceOf(Date)
  })

  it('searches names and emails, in any case and in Chinese, with % and _ taken literally', async () => {
    expect(names(await members(mary, { q: '小明' }))).toEqual(['王小明'])
    expect(names(await members(mary, { q: 'SOMERVILLE' }))).toEqual(['Mary Somerville'])
    expect(names(await members(mary, { q: 'charles.babbage@' }))).toEqual(['Charles Babbage'])
    expect(names(await members(mary, { q: '  xiaoming  ' }))).toEqual(['王小明'])
    expect(names(await members(mary, { q: '%' }))).toEqual([])
    expect(names(await members(mary, { q: '_' }))).toEqual([])
  })

  it('filters by one role, counting each role of a member who holds several', async () => {
    expect(names(await members(mary, { role: 'owner' }))).toEqual(['Ada Lovelace'])
    expect(names(await members(mary, { role: 'admin' }))).toEqual(['Charles Babbage'])
    expect(names(await members(mary, { role: 'member' }))).toEqual(['Charles Babbage', '王小明', 'Mary Somerville'])
    expect(names(await members(mary, { role: 'editor' }))).toEqual([])
    expect(names(await members(mary, { role: 'member', q: 'mary' }))).toEqual(['Mary Somerville'])
  })

  it('sorts by name, email or join date, either way', async () => {
    expect(names(await members(mary, { sort: 'name', direction: 'asc' }))).toEqual([
      'Ada Lovelace',
      'Charles Babbage',
      'Mary Somerville',
      '王小明',
    ])
    expect(names(await members(mary, { sort: 'email', direction: 'desc' }))).toEqual([
      '王小明',
      'Mary Somerville',
      'Charles Babbage',
      'Ada Lovelace',
    ])
    expect(names(await members(mary, { sort: 'createdAt', direction: 'desc' }))).toEqual([
      'Mary Somerville',
      '王小明',
      'Charles Babbage',
      'Ada Lovelace',
    ])
  })

  it('hands out pages that someone joining meanwhile does not shift', async () => {
    const byName = { sort: 'name', direction: 'asc', limit: 2 }
    const first = await members(mary, byName)
    expect(names(first)).toEqual(['Ada Lovelace', 'Charles Babbage'])
    expect(first.data?.previousCursor).toBeUndefined()
    const bea = await h.signUp('Bea Between')
    await h.join(organizationId, ada, bea)
    const second = await members(mary, { ...byName, after: first.data?.nextCursor })
    expect(names(second)).toEqual(['Mary Somerville', '王小明'])
    expect(second.data?.nextCursor).toBeUndefined()
    // Back from there: the two now before it, the newcomer included.
    const back = await members(mary, { ...byName, before: second.data?.previousCursor })
    expect(names(back)).toEqual(['Bea Between', 'Charles Babbage'])
    expect(back.data?.previousCursor).toBeDefined()
  })

  it('opens a page by its number, with the total the filters select', async () => {
    const byName = { sort: 'name', direction: 'asc', limit: 2 }
    const second = await members(mary, { ...byName, page: 2 })
    expect(names(second)).toEqual(['Charles Babbage', 'Mary Somerville'])
    expect(second.data?.total).toBe(5)
    expect(second.data?.previousCursor, 'a numbered page past the first has one before it').toBeDefined()
    expect(names(await members(mary, { ...byName, page: 3 }))).toEqual(['王小明'])
    expect((await members(mary, { role: 'admin', page: 1 })).data?.total).toBe(1)
  })

  it('answers bad input with the field it is about and a message to translate', async () => {
    const cases: [input: Record<string, unknown>, field: string, message: string][] = [
      [{ sort: 'age' }, 'sort', 'validation_list_sort_invalid'],
      [{ direction: 'sideways' }, 'direction', 'validation_list_sort_invalid'],
      [{ limit: 1000 }, 'limit', 'validation_list_page_size_invalid'],
      [{ limit: 2.5 }, 'limit', 'validation_list_page_size_invalid'],
      [{ q: 'x'.repeat(201) }, 'q', 'validation_list_search_too_long'],
      [{ role: 'Chief Engineer' }, 'role', 'validation_role_name_invalid'],
      [{ after: 'x'.repeat(1001) }, 'after', 'error_code_INVALID_CURSOR'],
      [{ page: 0 }, 'page', 'validation_list_page_invalid'],
      [{ page: 1.5 }, 'page', 'validation_list_page_invalid'],
    ]
    for (const [input, field, message] of cases) {
      const answer = await members(mary, input)
      expect(answer.error?.code, JSON.stringify(input)).toBe('BAD_REQUEST')
      expect(answer.error?.fieldErrors?.[field], JSON.stringify(input)).toEqual([message])
    }
    expect((await members(mary, { after: 'not-a-cursor' })).error?.appCode).toBe('INVALID_CURSOR')
  })

  describe('the activity log', () => {
    it('filters by type of entry and reads newest or oldest first', async () => {
      const all = await activity(ada)
      expect(all.error).toBeUndefined()
      const actions = all.data?.items.map((entry) => entry.action) ?? []
      expect(actions).toContain('member_invited')
      expect(typeof all.data?.items[0]?.id).toBe('number')
      const ids = all.data?.items.map((entry) => entry.id) ?? []
      expect(ids).toEqual([...ids].sort((a, b) => b - a))

      const joined = await activity(ada, { kind: 'members' })
      // Creating the organization added its owner; everyone else joined by invitation.
      expect(joined.data?.items.map((entry) => [entry.action, entry.actorName])).toEqual([
        ['member_joined', 'Bea Between'],
        ['member_joined', 'Mary Somerville'],
        ['member_joined', '王小明'],
        ['member_joined', 'Charles Babbage'],
        ['member_added', 'Ada Lovelace'],
      ])
      const invited = await activity(ada, { kind: 'invitations', direction: 'asc' })
      expect(new Set(invited.data?.items.map((entry) => entry.action))).toEqual(new Set(['member_invited']))
      expect(invited.data?.items).toHaveLength(4)
      expect(invited.data?.items.map((entry) => entry.id)).toEqual(
        [...(invited.data?.items.map((entry) => entry.id) ?? [])].sort((a, b) => a - b),
      )
      expect((await activity(ada, { kind: 'teams' })).data?.items).toEqual([])
    })

    it('pages by cursor, unshifted by entries written meanwhile', async () => {
      const newest = { kind: 'members', limit: 2 }
      const actors = (page: { data?: ActivityListPage }) => page.data?.items.map((entry) => entry.actorName)
      const first = await activity(ada, newest)
      expect(actors(first)).toEqual(['Bea Between', 'Mary Somerville'])
      // A newer entry would push an offset's pages along by one; the cursor's stay put.
      const grace = await h.signUp('Grace Hopper')
      await h.join(organizationId, ada, grace)
      const second = await activity(ada, { ...newest, after: first.data?.nextCursor })
      expect(actors(second)).toEqual(['王小明', 'Charles Babbage'])
      const third = await activity(ada, { ...newest, after: second.data?.nextCursor })
      expect(actors(third)).toEqual(['Ada Lovelace'])
      expect(third.data?.nextCursor).toBeUndefined()
      const back = await activity(ada, { ...newest, before: second.data?.previousCursor })
      expect(actors(back)).toEqual(['Bea Between', 'Mary Somerville'])
      expect(back.data?.previousCursor, 'the newcomer is on a page before it').toBeDefined()
      expect(actors(await activity(ada, newest))).toEqual(['Grace Hopper', 'Bea Between'])
      const numbered = await activity(ada, { ...newest, page: 3 })
      expect(actors(numbered), 'by number, the newcomer shifts the pages').toEqual(['Charles Babbage', 'Ada Lovelace'])
      expect(numbered.data?.total).toBe(6)
    })

    it('refuses members without activity:read and bad filters', async () => {
      expect((await activity(mary)).error?.appCode).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
      const badKind = await activity(ada, { kind: 'gossip' })
      expect(badKind.error?.fieldErrors?.kind).toEqual(['validation_list_filter_invalid'])
      expect((await activity(ada, { after: 'not-a-cursor' })).error?.appCode).toBe('INVALID_CURSOR')
    })
  })
})
