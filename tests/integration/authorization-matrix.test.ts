// The authorization matrix, generated from the router itself: every procedure, as every kind of caller, against the
// policy table (src/server/trpc/authorization-policy.ts). A procedure without a row fails here; so does one that lets
// in someone its row keeps out, or keeps out someone its row lets in. Then every organization-scoped procedure that
// names records is called with another organization's ids: never data, never a change.

import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installedApps } from '#/apps'
import { statements } from '#/lib/access-control'
import { apiKeyHeader } from '#/server/auth/auth'
import { accessAllows, loadOrganizationAccess } from '#/server/auth/organization-access'
import { members } from '#/server/db/schema'
import {
  apiRoutePolicy,
  type ProcedurePolicy,
  procedurePolicy,
  wellKnownRoutePolicy,
} from '#/server/trpc/authorization-policy'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { appRouter } from '#/server/trpc/root'
import { testOrigin } from './auth-requests'
import type { ForeignRecordInputs, ForeignRecords } from './foreign-records'
import { type OrganizationHarness, organizationHarness, type Person } from './organization-fixtures'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

/** The installed apps' procedures that take another organization's records (their tests/foreign-record-inputs.ts). */
const appForeignInputs = import.meta.glob<ForeignRecordInputs>('../../src/features/*/tests/foreign-record-inputs.ts', {
  eager: true,
})

const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def
  .procedures
const procedurePaths = Object.keys(procedures).sort()

/** A caller: how it proves who it is, and who it is for the policy (null: nobody, or a refused credential). */
interface Caller {
  name: string
  headers: Record<string, string>
  /** The account the server will act as, or null when the credential is refused (anonymous, banned, revoked). */
  actsAs: Person | null
  appAdmin: boolean
}

type Outcome = 'allowed' | 401 | 403

/** The answer the policy expects for this caller. */
async function expectedOutcome(db: FreshDatabase, policy: ProcedurePolicy, caller: Caller): Promise<Outcome> {
  const { gate } = policy
  if (gate.who === 'anyone') return 'allowed'
  if (!caller.actsAs) return 401
  if (gate.who === 'signed-in') return 'allowed'
  if (gate.who === 'app-admin') return caller.appAdmin ? 'allowed' : 403
  const latest = (await db.connection.db.execute(
    sql`select active_organization_id as organization_id from sessions where user_id = ${caller.actsAs.id}
        order by updated_at desc limit 1`,
  )) as unknown as { rows: { organization_id: string | null }[] }
  const session = latest.rows[0]
  const organizationId = session?.organization_id
  if (!organizationId) return 403
  const access = await loadOrganizationAccess(db.connection.db, caller.actsAs.id, organizationId)
  return access && accessAllows(access, gate.needs) ? 'allowed' : 403
}

/**
 * Every read action there is (the reader custom role), and every other action (the writer), of the product's own
 * resources and the installed apps' (Better Auth's organization resources are granted by their own rules).
 */
const productResources = Object.keys(statements).filter(
  (resource) => !['organization', 'member', 'invitation', 'team', 'ac'].includes(resource),
)
const actionsOf = (resource: string) => (statements as Record<string, readonly string[]>)[resource] ?? []
const readerPermission = Object.fromEntries(
  ['ac', ...productResources].map((resource) => [resource, actionsOf(resource).filter((action) => action === 'read')]),
)
const writerPermission = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'update', 'delete'],
  ...Object.fromEntries(
    productResources.map((resource) => [resource, actionsOf(resource).filter((action) => action !== 'read')]),
  ),
}

describe.each(coreEngines)('the authorization matrix on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  const callers: Caller[] = []
  /** Another organization's records, for the cross-organization calls. */
  const foreign: ForeignRecords = {
    organizationId: '',
    ownerId: '',
    memberId: '',
    ownerCookie: '',
    apps: {},
  }
  /** The installed apps' procedures that take another organization's records, with such an input. */
  const appInputs: Record<string, unknown> = {}
  let matrixOwner: Person
  const db = () => database.connection.db

  /** A procedure over HTTP as the caller, through the /api/trpc handler, with an input no procedure accepts. */
  const callProcedure = async (procedurePath: string, headers: Record<string, string>, input: unknown) => {
    const type = procedures[procedurePath]?._def.type
    const payload = JSON.stringify(superjson.serialize(input))
    const response = await handleTrpcRequest(
      new Request(
        `${testOrigin}/api/trpc/${procedurePath}${type === 'query' ? `?input=${encodeURIComponent(payload)}` : ''}`,
        {
          method: type === 'query' ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json', origin: testOrigin, ...headers },
          body: type === 'query' ? undefined : payload,
        },
      ),
      db(),
    )
    return { status: response.status, text: await response.text() }
  }

  /** The rows of every table a procedure could change, as one fingerprint (sessions and counters excluded). */
  const fingerprint = async () => {
    const tables = (
      (await db().execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
            and table_name not in ('sessions', 'rate_limits', 'auth_rate_limits', '__drizzle_migrations')
            order by table_name`,
      )) as unknown as { rows: { table_name: string }[] }
    ).rows.map((row) => row.table_name)
    const sums: Record<string, string> = {}
    for (const table of tables) {
      const result = (await db().execute(
        sql.raw(`select count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as sum
                 from "${table}" t`),
      )) as unknown as { rows: { sum: string }[] }
      sums[table] = result.rows[0]?.sum ?? ''
    }
    return sums
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    const person = (name: string) => h.signUp(name)
    const as = (name: string, who: Person, extra: Partial<Caller> = {}): Caller => ({
      name,
      headers: { cookie: who.cookie },
      actsAs: who,
      appAdmin: false,
      ...extra,
    })

    const appAdmin = await person('Xena Appadmin') // the install's first account
    matrixOwner = await person('Olive Owner')
    const orgId = await h.createOrganization(matrixOwner, 'Matrix Co', 'matrix-co')
    for (const [role, permission] of [
      ['reader', readerPermission],
      ['writer', writerPermission],
    ] as const) {
      const created = await h.call('/organization/create-role', {
        body: { organizationId: orgId, role, permission },
        cookie: matrixOwner.cookie,
      })
      expect(created.status, `creating ${role}: ${created.code}`).toBe(200)
    }
    const joined = async (name: string, role: string) => {
      const who = await person(name)
      const memberId = await h.join(orgId, matrixOwner, who, role === 'admin' ? 'admin' : 'member')
      if (role !== 'admin' && role !== 'member') {
        const set = await h.call('/organization/update-member-role', {
          body: { organizationId: orgId, memberId, role },
          cookie: matrixOwner.cookie,
        })
        expect(set.status, `giving ${name} ${role}`).toBe(200)
      }
      return who
    }
    const admin = await joined('Ada Admin', 'admin')
    const memberPerson = await joined('Mo Member', 'member')
    const reader = await joined('Rita Reader', 'reader')
    const writer = await joined('Walt Writer', 'writer')
    const impersonated = await joined('Ivo Impersonated', 'member')
    const banned = await joined('Ben Banned', 'member')

    const alone = await person('Nina Nomember')
    await db().delete(members).where(eq(members.userId, alone.id))

    const keyFor = async (who: Person, name: string) => {
      const answer = await h.call<{ id: string; key: string }>('/api-key/create', {
        body: { name },
        cookie: who.cookie,
      })
      expect(answer.status, 'an API key is made').toBe(200)
      return answer.body
    }
    const liveKey = await keyFor(memberPerson, 'Matrix key')
    const revokedKey = await keyFor(memberPerson, 'Revoked key')
    expect(
      (await h.call('/api-key/delete', { body: { keyId: revokedKey.id }, cookie: memberPerson.cookie })).status,
    ).toBe(200)
    const bannedKey = await keyFor(banned, 'Banned key')
    const ban = await h.trpc('mutation', 'users.ban', appAdmin.cookie, {
      userId: banned.id,
      reason: 'Matrix',
      duration: 'forever',
    })
    expect(ban.error, 'the ban is made').toBeUndefined()
    const impersonation = await h.call('/admin/impersonate-user', {
      body: { userId: impersonated.id },
      cookie: appAdmin.cookie,
    })
    expect(impersonation.status, 'impersonation starts').toBe(200)

    callers.push(
      { name: 'anonymous', headers: {}, actsAs: null, appAdmin: false },
      as('signed in without a membership', alone),
      as('member', memberPerson),
      as('custom role: every read', reader),
      as('custom role: every change', writer),
      as('admin', admin),
      as('owner', matrixOwner),
      as('app admin', appAdmin, { appAdmin: true }),
      { name: 'banned user', headers: { cookie: banned.cookie }, actsAs: null, appAdmin: false },
      { name: 'banned user’s API key', headers: { [apiKeyHeader]: bannedKey.key }, actsAs: null, appAdmin: false },
      // The app admin works as the person they impersonate, with that person's powers and no more.
      as('impersonating app admin', { ...impersonated, cookie: impersonation.cookie }),
      { name: 'API key of a member', headers: { [apiKeyHeader]: liveKey.key }, actsAs: memberPerson, appAdmin: false },
      { name: 'revoked API key', headers: { [apiKeyHeader]: revokedKey.key }, actsAs: null, appAdmin: false },
    )

    // Another organization, with a member of its own (and the apps' records, below: billing's open checkout).
    const otherOwner = await person('Pia Elsewhere')
    const otherOrg = (await h.activeOrganizationOf(otherOwner)) ?? ''
    foreign.memberId = (await h.membership(otherOrg, otherOwner.id))?.id ?? ''
    foreign.ownerCookie = otherOwner.cookie
    foreign.organizationId = otherOrg
    foreign.ownerId = otherOwner.id
    expect(Object.values(foreign).every(Boolean), `the other organization's records: ${JSON.stringify(foreign)}`).toBe(
      true,
    )
    for (const app of Object.values(appForeignInputs)) {
      Object.assign(appInputs, await app.foreignRecordInputs(db(), foreign))
    }
  }, 120_000)
  afterAll(() => database.dispose())

  it('has a policy row for every procedure the router has, and none for procedures it does not have', () => {
    expect(Object.keys(procedurePolicy).sort()).toEqual(procedurePaths)
  })

  it('has a policy row for every /api route, the core’s and every installed app’s', () => {
    // An app's routes are laid out like src/routes, mounted at the same root (src/app-routes.ts).
    const routesDirs = [
      path.resolve('src/routes/api'),
      ...installedApps.map((app) => path.resolve(`src/features/${app}/routes/api`)).filter((dir) => existsSync(dir)),
    ]
    // A dot is a path separator in a file route's name, `[.]` a dot in the path (`insights[.]js.ts` is `/insights.js`).
    const routeOf = (file: string) =>
      `/api/${file
        .replace(/\.tsx?$/, '')
        .split('[.]')
        .map((part) => part.replace(/\./g, '/'))
        .join('.')}`
    const walk = (dir: string, prefix = ''): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? walk(path.join(dir, entry.name), `${prefix}${entry.name}/`)
          : [routeOf(`${prefix}${entry.name}`)],
      )
    // tRPC and the metrics are answered at the server's entry (src/server.ts), not by file routes.
    const routes = [...routesDirs.flatMap((dir) => walk(dir)), '/api/trpc', '/api/metrics'].sort()
    expect(Object.keys(apiRoutePolicy).sort()).toEqual(routes)
  })

  it('has a policy row for every /.well-known route', () => {
    // `[.]well-known/security[.]txt.ts` is `/.well-known/security.txt`: the brackets escape the dot in the path.
    const routes = readdirSync(path.resolve('src/routes/[.]well-known'))
      .map((file) => `/.well-known/${file.replace(/\.tsx?$/, '').replace(/\[\.\]/g, '.')}`)
      .sort()
    expect(Object.keys(wellKnownRoutePolicy).sort()).toEqual(routes)
  })

  it('answers every procedure, as every kind of caller, the way its policy row says', async () => {
    const mismatches: string[] = []
    let calls = 0
    for (const procedurePath of procedurePaths) {
      const policy = procedurePolicy[procedurePath]
      if (!policy) continue // the first test names it
      for (const caller of callers) {
        const expected = await expectedOutcome(database, policy, caller)
        // -1 is no procedure's input: past the gate every procedure with an input answers 400 and changes nothing.
        const answer = await callProcedure(procedurePath, caller.headers, -1)
        calls++
        expect(answer.status, `${procedurePath} as ${caller.name}: ${answer.text.slice(0, 200)}`).toBeLessThan(500)
        const outcome: Outcome = answer.status === 401 ? 401 : answer.status === 403 ? 403 : 'allowed'
        if (outcome !== expected) {
          mismatches.push(`${procedurePath} as ${caller.name}: expected ${expected}, answered ${answer.status}`)
        }
      }
    }
    expect(mismatches, mismatches.join('\n')).toEqual([])
    expect(calls).toBe(procedurePaths.length * callers.length)
  }, 240_000)

  it('never answers another organization’s records to an owner, and changes nothing when asked to', async () => {
    const inputs: Record<string, unknown> = {
      'organizations.transferOwnership': { memberId: foreign.memberId },
      ...appInputs,
    }
    const organizationRecords = ['member', ...Object.values(appForeignInputs).flatMap((app) => app.foreignRecordKinds)]
    const naming = procedurePaths.filter((procedurePath) =>
      procedurePolicy[procedurePath]?.names?.some((kind) => organizationRecords.includes(kind)),
    )
    expect(Object.keys(inputs).sort(), 'every procedure naming organization records is tried here').toEqual(naming)
    const before = await fingerprint()
    for (const [procedurePath, input] of Object.entries(inputs)) {
      const answer = await callProcedure(procedurePath, { cookie: matrixOwner.cookie }, input)
      expect([403, 404], `${procedurePath}: ${answer.text.slice(0, 200)}`).toContain(answer.status)
      const appSecrets = Object.values(appForeignInputs).flatMap((app) => app.foreignRecordSecrets ?? [])
      for (const secret of ['Pia Elsewhere', ...appSecrets]) {
        expect(answer.text, `${procedurePath} shows nothing of theirs`).not.toContain(secret)
      }
    }
    expect(await fingerprint(), 'no table changed').toEqual(before)
  })
})
