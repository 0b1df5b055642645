// "Before you launch" on Console → System: a fresh install has everything still to do, a configured one has its items
// done, each from the configuration the server runs with; "Send a test email" goes through the outbox, to the admin.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installedApps } from '#/apps'
import { backupRuns, emailOutbox, users } from '#/server/db/schema'
import { parseEnv } from '#/server/env'
import { type LaunchCheck, launchChecklist } from '#/server/launch-checks'
import { updateSiteSettings } from '#/server/settings'
import { organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

interface Checklist {
  checks: LaunchCheck[]
  done: number
}

const coreItems = [
  'identity',
  'app-url',
  'auth-secret',
  'email',
  'social-sign-in',
  'backups',
  'two-factor',
  'security-contact',
  'telemetry',
]

/** Whether a docs address (`/docs/database#backups`) is a page of the core's docs or an installed app's. */
function docsPageExists(address: string): boolean {
  const slug = address.replace(/^\/docs\//, '').replace(/#.*$/, '')
  const folders = ['content/docs', ...installedApps.map((app) => `src/features/${app}/docs`)]
  return folders.some((folder) =>
    ['(guide)', '(operations)', ''].some((group) => existsSync(path.join(folder, group, `${slug}.mdx`))),
  )
}

describe.each(coreEngines)('Before you launch, on %s', (engine) => {
  let database: FreshDatabase
  const db = () => database.connection.db
  let admin: Person
  let member: Person

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    const h = organizationHarness(db())
    // The first account of a fresh install is its app admin.
    admin = await h.signUp('Launch Admin')
    member = await h.signUp('Launch Member')
  })
  afterAll(async () => {
    await database.dispose()
  })

  it('shows a fresh install with every item to do, each linking to a docs page that exists', async () => {
    const answer = await organizationHarness(db()).trpc<Checklist>('query', 'system.launchChecklist', admin.cookie, {
      locale: 'en',
    })
    const checklist = answer.data
    expect(answer.error, 'the app admin reads the checklist').toBeUndefined()
    const ids = checklist?.checks.map((check) => check.id) ?? []
    expect(ids, 'every core item is there, in order, whatever the apps add').toEqual(expect.arrayContaining(coreItems))
    expect(ids.filter((id) => coreItems.includes(id))).toEqual(coreItems)
    // The test harness signs sessions with a secret from the environment (auth-requests.ts), as a deployed server
    // should: that one item is done; the rest of a fresh install is not.
    expect(
      checklist?.checks.filter((check) => check.done).map((check) => check.id),
      'nothing else is done on a fresh install',
    ).toEqual(['auth-secret'])
    expect(checklist?.done).toBe(1)
    const byId = new Map(checklist?.checks.map((check) => [check.id, check]))
    expect(byId.get('identity')?.detail).toBe("Still called “Hatch”, with Hatch's egg as its logo.")
    expect(byId.get('app-url')?.detail).toBe('APP_URL is http://localhost:3000: not an https:// address.')
    expect(byId.get('email')?.detail).toContain('SMTP_URL is not set')
    expect(byId.get('backups')?.detail).toBe(
      'No backup yet. The schedule takes the first (20 3 * * *, UTC); take one now with npm run db:backup.',
    )
    expect(byId.get('two-factor')?.detail).toContain('one factor only')
    for (const check of checklist?.checks ?? []) {
      expect(docsPageExists(check.docs), `${check.id} links to ${check.docs}`).toBe(true)
    }
  })

  it('says when the session secret is the one generated in DATA_DIR', async () => {
    const checks = await launchChecklist(db(), parseEnv({}), {
      locale: 'en',
      requestOrigin: 'http://localhost:3000',
      userId: admin.id,
    })
    expect(checks.find((check) => check.id === 'auth-secret')).toMatchObject({ done: false })
    expect(checks.find((check) => check.id === 'auth-secret')?.detail).toContain('generated in DATA_DIR')
  })

  it('answers in the language the page asks for', async () => {
    const answer = await organizationHarness(db()).trpc<Checklist>('query', 'system.launchChecklist', admin.cookie, {
      locale: 'zh',
    })
    expect(answer.data?.checks.find((check) => check.id === 'backups')?.title).toBe('备份，以及最近一次备份的时间')
  })

  it('is for app admins only', async () => {
    const h = organizationHarness(db())
    const read = await h.trpc('query', 'system.launchChecklist', member.cookie, { locale: 'en' })
    expect(read.error?.appCode).toBe('APP_ADMIN_ONLY')
    const send = await h.trpc('mutation', 'system.sendTestEmail', member.cookie, { locale: 'en' })
    expect(send.error?.appCode).toBe('APP_ADMIN_ONLY')
  })

  it('marks each item done once the server is configured for it', async () => {
    await updateSiteSettings(db(), { productName: 'Acme Books', sourceRepositoryUrl: 'https://github.com/acme/books' })
    await db().update(users).set({ twoFactorEnabled: true }).where(eq(users.id, admin.id))
    await db()
      .insert(backupRuns)
      .values({
        trigger: 'scheduled',
        status: 'succeeded',
        startedAt: new Date(Date.now() - 3 * 3600_000),
        finishedAt: new Date(Date.now() - 3 * 3600_000 + 5000),
        location: 's3://acme-backups/books/hatch-backup-20261207T032000000Z',
        bytes: 1_000_000,
      })
    const env = parseEnv({
      BACKUP_TO: 's3://acme-backups/books',
      S3_ACCESS_KEY_ID: 'key-id',
      S3_SECRET_ACCESS_KEY: 'key-secret',
      APP_URL: 'https://books.acme.example',
      BETTER_AUTH_SECRET: 'a-secret-that-is-long-enough-for-better-auth',
      SMTP_URL: 'smtp://mailer:mail-password@mail.acme.example:587',
      GITHUB_CLIENT_ID: 'github-id',
      GITHUB_CLIENT_SECRET: 'github-secret',
      GOOGLE_CLIENT_ID: 'google-id',
      GOOGLE_CLIENT_SECRET: 'google-secret',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.acme.example:4318',
    })
    const checks = await launchChecklist(db(), env, {
      locale: 'en',
      requestOrigin: 'https://books.acme.example',
      userId: admin.id,
    })
    const state = Object.fromEntries(checks.map((check) => [check.id, check.done]))
    expect(state).toMatchObject({
      'app-url': true,
      'auth-secret': true,
      email: true,
      'social-sign-in': true,
      'two-factor': true,
      'security-contact': true,
      telemetry: true,
      backups: true,
      // The favicon this build carries is still Hatch's egg.
      identity: false,
    })
    const detail = (id: string) => checks.find((check) => check.id === id)?.detail ?? ''
    expect(detail('identity')).toContain('Called “Acme Books”, but public/favicon.svg')
    expect(detail('email'), 'the SMTP host is named, never its credentials').toBe(
      'SMTP_URL is set: emails go through mail.acme.example:587.',
    )
    expect(detail('social-sign-in')).toBe('Configured: GitHub and Google.')
    expect(detail('security-contact')).toBe('Vulnerability reports go to https://github.com/acme/books.')
    expect(detail('telemetry')).toBe('OpenTelemetry traces go to otel.acme.example:4318.')
    expect(detail('backups')).toBe(
      'The latest backup finished 3 hours ago, in s3://acme-backups/books/hatch-backup-20261207T032000000Z.',
    )
  })

  it('keeps backups to do while they sit beside the data, fail, grow old or are switched off', async () => {
    const backupsItem = async (variables: Record<string, string>) =>
      (
        await launchChecklist(db(), parseEnv(variables), {
          locale: 'en',
          requestOrigin: 'http://localhost:3000',
          userId: admin.id,
        })
      ).find((check) => check.id === 'backups')
    // The recent backup of the test above, but the default destination: DATA_DIR/backups, on the data's disk.
    expect(await backupsItem({ DATA_DIR: '/srv/hatch' })).toMatchObject({
      done: false,
      detail:
        'Backups go to /srv/hatch/backups, inside DATA_DIR on the same disk as the data: set BACKUP_TO to another disk or to s3://bucket/prefix.',
    })
    expect(await backupsItem({ BACKUP_TO: '/mnt/backups', BACKUP_SCHEDULE: 'off' })).toMatchObject({
      done: false,
      detail: 'Scheduled backups are off (BACKUP_SCHEDULE=off): nothing keeps a copy of the data.',
    })
    await db()
      .insert(backupRuns)
      .values({
        trigger: 'scheduled',
        status: 'failed',
        startedAt: new Date(Date.now() - 60_000),
        finishedAt: new Date(),
        error: 'pg_dump failed (exit 1): server version mismatch',
      })
    expect(await backupsItem({ BACKUP_TO: '/mnt/backups' })).toMatchObject({
      done: false,
      detail: 'The last backup failed: pg_dump failed (exit 1): server version mismatch',
    })
    await db().delete(backupRuns)
    await db()
      .insert(backupRuns)
      .values({
        trigger: 'scheduled',
        status: 'succeeded',
        startedAt: new Date(Date.now() - 3 * 86_400_000),
        finishedAt: new Date(Date.now() - 3 * 86_400_000),
        location: '/mnt/backups/hatch-backup-20261204T032000000Z',
        bytes: 1000,
      })
    expect(await backupsItem({ BACKUP_TO: '/mnt/backups' })).toMatchObject({
      done: false,
      detail:
        'The latest backup finished 3 days ago (/mnt/backups/hatch-backup-20261204T032000000Z): the schedule has not kept one since. Console → System shows why.',
    })
    await db().delete(backupRuns)
  })

  it('says when requests reach the server on another address than APP_URL, and when social sign-in is off', async () => {
    await updateSiteSettings(db(), { authGithub: false, authGoogle: false, authGenericOauth: false })
    const env = parseEnv({ APP_URL: 'https://books.acme.example' })
    const checks = await launchChecklist(db(), env, {
      locale: 'en',
      requestOrigin: 'http://127.0.0.1:3000',
      userId: admin.id,
    })
    const address = checks.find((check) => check.id === 'app-url')
    expect(address?.done).toBe(false)
    expect(address?.detail).toContain('this page came through http://127.0.0.1:3000')
    const social = checks.find((check) => check.id === 'social-sign-in')
    expect(social).toMatchObject({
      done: true,
      detail: 'Every social sign-in method is switched off in Configuration.',
    })
  })

  it('sends a test email to the signed-in admin through the outbox, a few a minute at most', async () => {
    const h = organizationHarness(db())
    const sent = await h.trpc<{ to: string; kept: boolean }>('mutation', 'system.sendTestEmail', admin.cookie, {
      locale: 'en',
    })
    // Without SMTP (as these tests run) the email is kept, for the admin to read under Kept emails.
    expect(sent.data).toEqual({ to: admin.email, kept: true })
    const kept = await db()
      .select({ subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, admin.email), eq(emailOutbox.status, 'held')))
    expect(kept.map((email) => email.subject)).toContain('A test email from Acme Books')

    const answers = []
    for (let attempt = 0; attempt < 5; attempt++) {
      answers.push(await h.trpc('mutation', 'system.sendTestEmail', admin.cookie, { locale: 'en' }))
    }
    expect(answers.map((answer) => answer.error?.appCode ?? 'sent')).toEqual([
      'sent',
      'sent',
      'sent',
      'sent',
      'TOO_MANY_REQUESTS',
    ])
  })
})
