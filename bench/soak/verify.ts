// After the load, with the server stopped: what the database holds, read directly (SQL, not the app), against what
// the load generator saw acknowledged, and the billing ledger's own balance.
import path from 'node:path'
import type { Acknowledged } from './acknowledged.ts'
import type { SoakDatabase } from './server.ts'

export interface Check {
  name: string
  expected: string
  found: string
  ok: boolean
}

type Row = Record<string, unknown>
type Query = (sql: string, params?: unknown[]) => Promise<Row[]>

async function openDatabase(database: SoakDatabase): Promise<{ query: Query; close(): Promise<void> }> {
  if (database.url) {
    const pg = (await import('pg')).default
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    return { query: async (sql, params) => (await client.query(sql, params)).rows, close: () => client.end() }
  }
  const { PGlite } = await import('@electric-sql/pglite')
  // The folder the server used (src/server/db/database.ts); the server has stopped, so nothing else holds it.
  const client = new PGlite(path.join(database.dataDir, 'pglite'))
  return { query: async (sql, params) => (await client.query<Row>(sql, params)).rows, close: () => client.close() }
}

/** Counts per key of a `select key, count(*)::int as n … group by key` query. */
async function countsBy(query: Query, sql: string, params: unknown[]): Promise<Map<string, number>> {
  return new Map((await query(sql, params)).map((row) => [String(row.key), Number(row.n)]))
}

/** Each acknowledged key present exactly once; extra (unacknowledged) rows are reported, not failed. */
function exactlyOnce(name: string, acknowledged: Set<string>, stored: Map<string, number>): Check {
  let missing = 0
  let duplicated = 0
  for (const key of acknowledged) {
    const count = stored.get(key) ?? 0
    if (count === 0) missing++
    if (count > 1) duplicated++
  }
  const unacknowledged = [...stored.keys()].filter((key) => !acknowledged.has(key)).length
  return {
    name,
    expected: `${acknowledged.size} once each`,
    found:
      `${acknowledged.size - missing - duplicated} once, ${missing} missing, ${duplicated} duplicated` +
      (unacknowledged ? ` (+${unacknowledged} unacknowledged, in flight at the stop)` : ''),
    ok: missing === 0 && duplicated === 0,
  }
}

/**
 * `snapshot`: the database is a copy taken while the load ran (the restore drill). What was acknowledged before the copy
 * must be in it, and the ledger must balance; an edit or a provider event may have been caught half-way through its
 * flow, so those checks are left out.
 */
export async function verifyDatabase(
  database: SoakDatabase,
  runTag: string,
  acknowledged: Acknowledged,
  installedApps: readonly string[],
  options: { snapshot?: boolean } = {},
): Promise<Check[]> {
  const { query, close } = await openDatabase(database)
  try {
    const checks: Check[] = []
    const like = (prefix: string) => `${prefix}%`
    checks.push(
      exactlyOnce(
        'accounts (sign-ups)',
        acknowledged.accounts,
        await countsBy(query, 'select email as key, count(*)::int as n from users where email like $1 group by email', [
          like(`soak-${runTag}-`),
        ]),
      ),
    )
    checks.push(
      exactlyOnce(
        'books (create, MCP, CSV rows)',
        acknowledged.bookTitles,
        await countsBy(query, 'select title as key, count(*)::int as n from books where title like $1 group by title', [
          like(`Soak ${runTag} `),
        ]),
      ),
    )
    if (!options.snapshot) checks.push(...(await editChecks(query, acknowledged)))
    if (installedApps.includes('analytics')) {
      checks.push(
        exactlyOnce(
          'analytics page views (beacons)',
          acknowledged.beacons,
          await countsBy(
            query,
            'select page_view_id as key, count(*)::int as n from analytics_events where page_view_id like $1 group by page_view_id',
            [like(`sk${runTag}`)],
          ),
        ),
      )
    }
    const ledger = await ledgerChecks(query, acknowledged)
    checks.push(...(options.snapshot ? ledger.filter((check) => !caughtHalfWay.test(check.name)) : ledger))
    return checks
  } finally {
    await close()
  }
}

/** Ledger checks a copy taken during the load may fail without a fault: a provider event received but not applied yet. */
const caughtHalfWay = /events applied|left pending|billing\.overview/

async function editChecks(query: Query, acknowledged: Acknowledged): Promise<Check[]> {
  const edited = await query('select id, description from books where id = any($1)', [
    [...acknowledged.bookEdits.keys()],
  ])
  const editKept = edited.filter((row) => acknowledged.bookEdits.get(String(row.id)) === row.description).length
  return [
    {
      name: 'book edits (books.update)',
      expected: `${acknowledged.bookEdits.size} kept`,
      found: `${editKept} kept`,
      ok: editKept === acknowledged.bookEdits.size,
    },
    { name: 'CSV imports', expected: `${acknowledged.imports} × 5 rows`, found: 'in the books row above', ok: true },
  ]
}

/**
 * The ledger balances when every paid checkout bought exactly one live subscription of what it paid for, and every
 * live subscription was paid by exactly one checkout (src/features/billing/server/ledger.ts writes both from the
 * same provider events), every event was applied, and no organization holds two live subscriptions.
 */
async function ledgerChecks(query: Query, acknowledged: Acknowledged): Promise<Check[]> {
  const checks: Check[] = []
  const orders = await query('select id, status from billing_orders where id = any($1)', [[...acknowledged.ordersPaid]])
  const paid = orders.filter((row) => row.status === 'paid').length
  checks.push({
    name: 'orders paid (settled checkouts)',
    expected: `${acknowledged.ordersPaid.size} paid`,
    found: `${paid} paid of ${orders.length} found`,
    ok: paid === acknowledged.ordersPaid.size,
  })
  const [totals] = await query(`
    select
      (select count(*)::int from billing_orders where kind = 'checkout' and status = 'paid') as paid_orders,
      (select coalesce(sum(amount), 0)::bigint from billing_orders where kind = 'checkout' and status = 'paid') as paid_amount,
      (select count(*)::int from billing_subscriptions where status = 'active') as live_subscriptions,
      (select coalesce(sum(amount), 0)::bigint from billing_subscriptions where status = 'active') as live_amount,
      (select count(*)::int from billing_orders o where o.kind = 'checkout' and o.status = 'paid' and not exists (
        select 1 from billing_subscriptions s
        where s.provider = o.provider and s.provider_subscription_id = o.provider_subscription_id
          and s.organization_id = o.organization_id and s.status = 'active'
          and s.plan_id = o.plan_id and s.amount = o.amount and s.currency = o.currency
      )) as paid_without_subscription,
      (select count(*)::int from billing_subscriptions s where s.status = 'active' and (
        select count(*) from billing_orders o
        where o.provider = s.provider and o.provider_subscription_id = s.provider_subscription_id and o.status = 'paid'
      ) <> 1) as subscriptions_not_paid_once,
      (select count(*)::int from (
        select organization_id from billing_subscriptions where status = 'active'
        group by organization_id having count(*) > 1
      ) doubled) as organizations_subscribed_twice,
      (select count(*)::int from billing_events where processed_at is null or last_error is not null) as events_unapplied,
      (select count(*)::int from billing_events) as events,
      (select count(*)::int from billing_orders where status = 'pending') as orders_pending
  `)
  const number = (key: string) => Number(totals?.[key] ?? Number.NaN)
  checks.push({
    name: 'ledger: paid checkouts = live subscriptions',
    expected: 'equal counts and amounts',
    found:
      `${number('paid_orders')} orders (${number('paid_amount') / 100} USD), ` +
      `${number('live_subscriptions')} subscriptions (${number('live_amount') / 100} USD)`,
    ok: number('paid_orders') === number('live_subscriptions') && number('paid_amount') === number('live_amount'),
  })
  checks.push({
    name: 'ledger: each paid order has its subscription',
    expected: '0 without',
    found: `${number('paid_without_subscription')} without`,
    ok: number('paid_without_subscription') === 0,
  })
  checks.push({
    name: 'ledger: each subscription paid exactly once',
    expected: '0 otherwise',
    found: `${number('subscriptions_not_paid_once')} otherwise`,
    ok: number('subscriptions_not_paid_once') === 0,
  })
  checks.push({
    name: 'ledger: one live subscription per organization',
    expected: '0 with two',
    found: `${number('organizations_subscribed_twice')} with two`,
    ok: number('organizations_subscribed_twice') === 0,
  })
  checks.push({
    name: 'ledger: provider events applied',
    expected: `${number('events')} applied`,
    found: `${number('events') - number('events_unapplied')} applied`,
    ok: number('events_unapplied') === 0,
  })
  // A checkout started but not settled when the run stopped stays pending, as an abandoned one does: shown, not judged.
  checks.push({
    name: 'ledger: orders left pending (not settled)',
    expected: `~${acknowledged.checkoutsStarted.size - acknowledged.ordersPaid.size}`,
    found: String(number('orders_pending')),
    ok: true,
  })
  checks.push({
    name: 'billing.overview shows Pro after paying',
    expected: '0 otherwise',
    found: `${acknowledged.planNotShown} otherwise`,
    ok: acknowledged.planNotShown === 0,
  })
  return checks
}
