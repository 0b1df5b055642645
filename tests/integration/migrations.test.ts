import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteSettings } from '#/server/db/schema'
import { createFreshDatabase, engines, type FreshDatabase } from './test-databases'

/** Rows of a raw query; the driver-neutral database type does not know their shape. */
async function rows<Row>(database: FreshDatabase, query: ReturnType<typeof sql>): Promise<Row[]> {
  const result = (await database.connection.db.execute(query)) as unknown as { rows: Row[] }
  return result.rows
}

const journal = JSON.parse(readFileSync(path.resolve('drizzle/meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[]
}

describe.each(engines)('migrations on an empty %s database', (engine) => {
  let database: FreshDatabase
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
  })
  afterAll(() => database.dispose())

  it('apply cleanly and record every migration in the journal', async () => {
    await database.connection.migrate()
    const applied = await rows<{ hash: string }>(database, sql`select hash from drizzle.__drizzle_migrations`)
    expect(applied).toHaveLength(journal.entries.length)
  })

  it('create the tables the app uses, with the default site settings row', async () => {
    const [row] = await database.connection.db.select().from(siteSettings)
    expect(row).toMatchObject({ id: 1, productName: 'Hatch', defaultTheme: 'system' })
    const tables = await rows<{ table_name: string }>(
      database,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )
    expect(tables.map((table) => table.table_name)).toEqual([
      'accounts',
      'ai_conversations',
      'ai_messages',
      'ai_requests',
      'ai_usage',
      'analytics_daily',
      'analytics_events',
      'analytics_rolled_days',
      'analytics_salts',
      'api_keys',
      'app_servers',
      'audit_log',
      'auth_rate_limits',
      'billing_events',
      'billing_orders',
      'billing_subscriptions',
      'book_imports',
      'books',
      'email_outbox',
      'invitations',
      'local_payment_objects',
      'members',
      'newsletter_subscribers',
      'notification_settings',
      'notifications',
      'organization_activity',
      'organization_files',
      'organization_roles',
      'organizations',
      'passkeys',
      'rate_limits',
      'scheduled_job_runs',
      'sessions',
      'sign_in_throttles',
      'site_setting_changes',
      'site_settings',
      'sso_providers',
      'team_members',
      'teams',
      'two_factors',
      'users',
      'verifications',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoints',
    ])
  })

  it('do nothing when applied again', async () => {
    await database.connection.migrate()
    const applied = await rows<{ hash: string }>(database, sql`select hash from drizzle.__drizzle_migrations`)
    expect(applied).toHaveLength(journal.entries.length)
  })

  it('keep the one-row rule for site settings in the database itself', async () => {
    await expect(database.connection.db.insert(siteSettings).values({ id: 2 })).rejects.toThrow()
    await expect(
      database.connection.db.execute(sql`update site_settings set default_theme = 'sepia'`),
    ).rejects.toThrow()
  })
})
