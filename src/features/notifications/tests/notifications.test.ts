// In-app notifications: what the organization's events put in each person's bell, the live stream that tells their
// open pages (GET /api/notifications), who may read and mark which, and the emails people chose, in their language.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type EventSourceLike, followLiveStream, refusedStreamRetryMs } from '#/features/notifications/live-stream'
import { answerNotificationStream } from '#/features/notifications/server/notification-stream'
import { m } from '#/paraglide/messages'
import { backupJob } from '#/server/backups/backups'
import { emailOutbox, notifications } from '#/server/db/schema'
import { parseEnv } from '#/server/env'
import { localFileStorage } from '#/server/files/local-storage'
import { streamsPerPersonMax } from '#/server/live-updates'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { openStream, streamAnswerOf } from './notification-streams'

interface Bell {
  items: { id: string; type: string; params: Record<string, string>; link: string | null; readAt: Date | null }[]
  unread: number
}

const until = async (check: () => Promise<boolean> | boolean, what: string) => {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`gave up waiting for ${what}`)
}

describe.each(engines)('notifications on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let owner: Person
  let bob: Person
  let organizationId: string
  const bell = async (who: Person) => {
    const answer = await h.trpc<Bell>('query', 'notifications.list', who.cookie)
    expect(answer.error).toBeUndefined()
    return answer.data as Bell
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(database.connection.db)
    owner = await h.signUp(`Nora Notifier ${engine}`)
    bob = await h.signUp(`Bob Bell ${engine}`)
    organizationId = await h.createOrganization(owner, 'Belltower Books', `belltower-${engine}`)
  }, 60_000)
  afterAll(() => database.dispose())
  const streamAnswer = (who: Person) => streamAnswerOf(database, who)

  it('tells the app admins when a scheduled backup fails for good, and no one else', async () => {
    // Nora signed up first: the app admin. The destination cannot be made (a folder inside a device file).
    const files = mkdtempSync(path.join(tmpdir(), 'hatch-backup-notice-files-'))
    const job = backupJob(parseEnv({ BACKUP_TO: '/dev/null/backups', BACKUP_SCHEDULE: 'off' }), {
      connection: database.connection,
      storage: localFileStorage({ root: files, appUrl: testOrigin, secret: 'a-secret-of-at-least-thirty-two-chars' }),
    })
    const attempt = { jobId: `backup-${engine}`, retryCount: 0, retryLimit: 2, last: false }
    await expect(job.run(database.connection.db, {}, attempt)).rejects.toThrow(/ENOTDIR|not a directory/)
    const failedNotice = (items: Bell['items']) => items.filter((item) => item.type === 'backup_failed')
    expect(failedNotice((await bell(owner)).items), 'a retry follows: nobody is told yet').toEqual([])
    await expect(job.run(database.connection.db, {}, { ...attempt, retryCount: 2, last: true })).rejects.toThrow()
    expect(failedNotice((await bell(owner)).items)).toEqual([
      expect.objectContaining({
        link: '/console/system',
        params: { reason: expect.stringMatching(/ENOTDIR|not a directory/) },
      }),
    ])
    expect(failedNotice((await bell(bob)).items), 'not an app admin').toEqual([])
    // The bells stay as the tests below expect them.
    await database.connection.db.delete(notifications).where(eq(notifications.type, 'backup_failed'))
    rmSync(files, { recursive: true, force: true })
  })

  it('leaves out what a removed app reported: neither listed nor counted as unread', async () => {
    const before = await bell(bob)
    await database.connection.db.insert(notifications).values({
      id: `ntf_gone_${engine}`,
      userId: bob.id,
      type: 'removed_app_kind',
      params: {},
      link: '/console/removed-app',
    })
    const after = await bell(bob)
    expect(after.items.map((item) => item.type)).not.toContain('removed_app_kind')
    expect(after.unread).toBe(before.unread)
    await database.connection.db.delete(notifications).where(eq(notifications.id, `ntf_gone_${engine}`))
  })

  it('tells an invited, promoted and removed member, live, and only them', async () => {
    // Bob's console is open in Chinese: the stream hears each change, and his emails are written in Chinese.
    const stream = await openStream(database, bob, 'zh')
    await until(() => stream.heard.includes('ready'), 'the stream to open')

    await h.join(organizationId, owner, bob, 'member')
    await until(() => stream.heard.includes('notifications'), 'the live update')
    const invited = await bell(bob)
    expect(invited.unread).toBe(1)
    expect(invited.items[0]).toMatchObject({
      type: 'invited',
      params: { organization: 'Belltower Books', inviter: owner.name },
      link: expect.stringMatching(/^\/accept-invitation\//),
    })

    const membership = await h.membership(organizationId, bob.id)
    const promoted = await h.call('/organization/update-member-role', {
      body: { organizationId, memberId: membership?.id, role: 'admin' },
      cookie: owner.cookie,
    })
    expect(promoted.status).toBe(200)
    const removed = await h.call('/organization/remove-member', {
      body: { organizationId, memberIdOrEmail: membership?.id },
      cookie: owner.cookie,
    })
    expect(removed.status).toBe(200)
    await until(() => stream.heard.filter((event) => event === 'notifications').length >= 3, 'three live updates')
    const after = await bell(bob)
    expect(after.items.map((item) => item.type)).toEqual(['removed', 'role_changed', 'invited'])
    expect(after.items[1]?.params).toMatchObject({ role: 'admin' })
    expect(after.unread).toBe(3)
    // Nobody else was told, and the one who acted is not told about their own act.
    expect((await bell(owner)).items).toEqual([])

    // "Removed" is one of the emails a new account gets, in the language of the page that last opened the stream.
    const subjects = (await database.connection.db.select().from(emailOutbox).where(eq(emailOutbox.to, bob.email))).map(
      (email) => email.subject,
    )
    expect(subjects.filter((subject) => subject.includes('你已被移出 Belltower Books'))).toHaveLength(1)
    // A role change is not among the default emails.
    expect(subjects.some((subject) => subject.includes('角色'))).toBe(false)
    await stream.close()
  })

  it('marks only the caller’s own notifications read', async () => {
    const [bobsFirst] = (await bell(bob)).items
    const byOwner = await h.trpc<{ marked: number }>('mutation', 'notifications.markRead', owner.cookie, {
      ids: [bobsFirst?.id],
    })
    expect(byOwner.data).toEqual({ marked: 0 })
    expect((await bell(bob)).unread).toBe(3)
    const byBob = await h.trpc<{ marked: number }>('mutation', 'notifications.markRead', bob.cookie, {
      ids: [bobsFirst?.id],
    })
    expect(byBob.data).toEqual({ marked: 1 })
    expect((await bell(bob)).unread).toBe(2)
    await h.trpc('mutation', 'notifications.markAllRead', bob.cookie)
    expect((await bell(bob)).unread).toBe(0)
    const rows = await database.connection.db.select().from(notifications).where(eq(notifications.userId, bob.id))
    expect(rows.every((row) => row.readAt !== null)).toBe(true)
  })

  it('sends the emails a person chose and no others', async () => {
    const carol = await h.signUp(`Carol Choosy ${engine}`)
    const saved = await h.trpc('mutation', 'notifications.updateSettings', carol.cookie, {
      emailTypes: ['role_changed'],
      locale: 'en',
    })
    expect(saved.error).toBeUndefined()
    expect((await h.trpc('query', 'notifications.settings', carol.cookie)).data).toEqual({
      emailTypes: ['role_changed'],
    })
    const refused = await h.trpc('mutation', 'notifications.updateSettings', carol.cookie, {
      emailTypes: ['everything'],
    })
    expect(refused.status).toBe(400)

    const memberId = await h.join(organizationId, owner, carol, 'member')
    await h.call('/organization/update-member-role', {
      body: { organizationId, memberId, role: 'admin' },
      cookie: owner.cookie,
    })
    await h.call('/organization/remove-member', {
      body: { organizationId, memberIdOrEmail: memberId },
      cookie: owner.cookie,
    })
    const subjects = (
      await database.connection.db.select().from(emailOutbox).where(eq(emailOutbox.to, carol.email))
    ).map((email) => email.subject)
    expect(subjects.filter((subject) => subject.includes('Your role in Belltower Books is now Admin'))).toHaveLength(1)
    expect(subjects.some((subject) => subject.includes('removed from'))).toBe(false)
  })

  it('holds one person to a few open streams at once, and frees a place when a page goes', async () => {
    const carol = await h.signUp(`Carol Crowd ${engine}`)
    const streams = await Promise.all(Array.from({ length: streamsPerPersonMax }, () => openStream(database, carol)))
    const refused = await Promise.all(Array.from({ length: 3 }, () => streamAnswer(carol)))
    for (const answer of refused) {
      expect(answer.status, 'one stream too many').toBe(429)
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await answer.json()).toMatchObject({ error: { code: 'TOO_MANY_STREAMS' } })
    }
    const someoneElse = await openStream(database, bob)
    await someoneElse.close()
    await streams[0]?.close()
    const again = await openStream(database, carol)
    await Promise.all([again, ...streams.slice(1)].map((stream) => stream.close()))
  })

  it('refuses the stream without a session', async () => {
    const answer = await answerNotificationStream(
      new Request(`${testOrigin}/api/notifications`),
      database.connection.db,
    )
    expect(answer.status).toBe(401)
  })

  it('refuses in the language of the page that asked', async () => {
    const dora = await h.signUp(`Dora Doubled ${engine}`)
    const streams = await Promise.all(Array.from({ length: streamsPerPersonMax }, () => openStream(database, dora)))
    try {
      const tooMany = await streamAnswerOf(database, dora, 'zh')
      expect(await tooMany.json()).toEqual({
        error: { code: 'TOO_MANY_STREAMS', message: m.error_code_TOO_MANY_STREAMS({}, { locale: 'zh' }) },
      })
    } finally {
      await Promise.all(streams.map((stream) => stream.close()))
    }
    const signedOut = await streamAnswerOf(database, undefined, 'zh')
    expect(await signedOut.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: m.error_code_UNAUTHORIZED({}, { locale: 'zh' }) },
    })
  })
})

/** An EventSource as a test drives it: it opens, says ready, or is refused (which ends an EventSource for good). */
class FakeEventSource implements EventSourceLike {
  readyState = 0
  onerror: ((event: Event) => void) | null = null
  private listeners = new Map<string, (() => void)[]>()
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  emit(type: string) {
    this.readyState = 1
    for (const listener of this.listeners.get(type) ?? []) listener()
  }
  refuse() {
    this.readyState = 2
    this.onerror?.(new Event('error'))
  }
  close() {
    this.readyState = 2
  }
}

describe('a page whose notification stream is refused', () => {
  afterEach(() => vi.useRealTimers())

  it('asks again after the Retry-After wait instead of losing live updates until reloaded', () => {
    vi.useFakeTimers()
    const opened: FakeEventSource[] = []
    const heard: string[] = []
    const live: boolean[] = []
    const stop = followLiveStream({
      url: '/api/notifications?lang=en',
      on: { ready: () => heard.push('ready'), notifications: () => heard.push('notifications') },
      onLive: (now) => live.push(now),
      open: (url) => {
        const source = new FakeEventSource(url)
        opened.push(source)
        return source
      },
    })
    // Ten tabs are open already: the server answers 429, and EventSource gives up.
    opened[0]?.refuse()
    expect(live, 'the page knows it is not live (it reads its list now and then)').toEqual([false])
    vi.advanceTimersByTime(refusedStreamRetryMs / 2)
    expect(opened, 'not at once: the places free themselves within the Retry-After').toHaveLength(1)
    vi.advanceTimersByTime(refusedStreamRetryMs)
    expect(opened, 'asked again').toHaveLength(2)
    opened[1]?.emit('ready')
    opened[1]?.emit('notifications')
    expect(heard).toEqual(['ready', 'notifications'])
    expect(live).toEqual([false, true])
    stop()
    expect(opened[1]?.readyState, 'closed when the page goes').toBe(2)
    opened[1]?.refuse()
    vi.advanceTimersByTime(refusedStreamRetryMs * 2)
    expect(opened, 'nothing reopens after the page went').toHaveLength(2)
  })
})
