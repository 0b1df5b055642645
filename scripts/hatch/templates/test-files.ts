// The generated app's tests: its story against a real database on every engine, its rows of the shared matrices
// (permissions, other organizations' records, the fuzzer's MCP target), and one walk through the console in Chromium.
import type { NewAppSpec, NewField } from '../new-app-spec.ts'
import { fieldLimits } from './entity-files.ts'
import { upper } from './server-files.ts'

/** A valid value of a field for the tests, as the procedures take it. */
function sampleValue(field: NewField): string {
  switch (field.kind) {
    case 'text':
      return `'Some ${field.label.en.toLowerCase()}'`
    case 'longtext':
      return `'A few lines\\nabout it'`
    case 'list':
      return `['One', 'Two']`
    case 'integer':
      return '42'
    case 'year':
      return '1999'
    case 'url':
      return `'https://example.com/'`
  }
}

/** A value its rule refuses, with the message key it answers, where the kind has one. */
function refusedValue(spec: NewAppSpec, field: NewField): [string, string] | undefined {
  const stem = `validation_${spec.table}_${field.column}`
  switch (field.kind) {
    case 'year':
      return ['999', `${stem}_invalid`]
    case 'url':
      return [`'ftp://example.com/'`, `${stem}_invalid`]
    case 'integer':
      return [`'many'`, `${stem}_invalid`]
    default:
      return undefined
  }
}

export function integrationTestFile(spec: NewAppSpec): string {
  const s = spec
  const t = s.router
  const name = s.fields[0]?.key ?? ''
  const nameColumn = s.fields[0]?.column ?? ''
  const helper = `${s.entity}With${upper(name)}`
  const full = s.fields
    .slice(1)
    .map((field) => `${field.key}: ${sampleValue(field)}`)
    .join(', ')
  const refusals = s.fields.slice(1).flatMap((field) => {
    const refused = refusedValue(s, field)
    return refused ? [{ field, value: refused[0], key: refused[1] }] : []
  })
  return `import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { sortableKeysOf } from '#/lib/entity'
import { ${s.entity}Entity } from '../${s.entityFile}-entity'
import { ${helper} } from '../schemas'
import { ${s.entity}SortColumns } from '../search'

interface Listed {
  id: string
  ${name}: string
}
interface Page {
  items: Listed[]
  total: number
  nextCursor?: string
}

/** Every field filled in, as the form would send it. */
const complete = (${name}: string) => ${helper}(${name}, { ${full} })

describe.each(engines)('${s.english.manyInSentence} on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  /** Olga owns the organization, Max is a member; Nora belongs to another organization. */
  let olga: Person
  let max: Person
  let nora: Person
  const db = () => database.connection.db
  const query = <T>(path: string, person: Person | undefined, input?: unknown) =>
    h.trpc<T>('query', \`${t}.\${path}\`, person?.cookie, input)
  const mutate = <T>(path: string, person: Person | undefined, input?: unknown) =>
    h.trpc<T>('mutation', \`${t}.\${path}\`, person?.cookie, input)
  const create = async (person: Person, input: unknown) => {
    const answer = await mutate<{ id: string }>('create', person, input)
    expect(answer.error, 'the ${s.english.oneInSentence} is created').toBeUndefined()
    return answer.data?.id ?? ''
  }
  const list = async (person: Person, input: Record<string, unknown> = {}) => {
    const answer = await query<Page>('list', person, input)
    expect(answer.error, 'the list answers').toBeUndefined()
    return answer.data as Page
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Owner')
    max = await h.signUp('Max Member')
    nora = await h.signUp('Nora Elsewhere')
    const organizationId = await h.createOrganization(olga, 'Studio', 'studio')
    await h.join(organizationId, olga, max, 'member')
    await h.createOrganization(nora, 'Elsewhere', 'elsewhere')
  })
  afterAll(() => database.dispose())

  it('refuses every procedure to a signed-out caller', async () => {
    const calls: [string, 'query' | 'mutation', unknown][] = [
      ['list', 'query', {}],
      ['get', 'query', { id: 'x' }],
      ['exportCsv', 'query', {}],
      ['create', 'mutation', complete('Anonymous')],
      ['update', 'mutation', { id: 'x', ${s.entity}: complete('Anonymous') }],
      ['delete', 'mutation', { ids: ['x'] }],
      ['restore', 'mutation', { ids: ['x'] }],
      ['import', 'mutation', { csv: '${nameColumn}\\nA', dryRun: false }],
    ]
    for (const [path, kind, input] of calls) {
      const answer = await h.trpc(kind, \`${t}.\${path}\`, undefined, input)
      expect(answer.error?.code, \`${t}.\${path} signed out\`).toBe('UNAUTHORIZED')
    }
  })

  it('keeps what a member adds, with every field, and reads it back', async () => {
    const id = await create(max, complete('Kept whole'))
    const answer = await query<Record<string, unknown>>('get', olga, { id })
    expect(answer.error).toBeUndefined()
    expect(answer.data).toMatchObject({ ...complete('Kept whole'), id, createdByName: 'Max Member' })
    expect(answer.data, 'the search column stays on the server').not.toHaveProperty('searchText')
  })

  it('refuses a ${s.english.oneInSentence} without its ${s.fields[0]?.label.en.toLowerCase()}, naming the field', async () => {
    const answer = await mutate('create', max, ${helper}(''))
    expect(answer.error?.code).toBe('BAD_REQUEST')
    expect(answer.error?.fieldErrors?.${name}).toEqual(['validation_required'])
  })
${refusals
  .map(
    ({ field, value, key }) => `
  it('refuses a value its rule does not take in ${field.label.en}', async () => {
    const answer = await mutate('create', max, ${helper}('Refused', { ${field.key}: ${value} } as never))
    expect(answer.error?.code).toBe('BAD_REQUEST')
    expect(answer.error?.fieldErrors?.${field.key}).toEqual(['${key}'])
  })
`,
  )
  .join('')}
  it('lets a member change and delete only their own, and the owner any', async () => {
    const mine = await create(max, ${helper}('Max’s own'))
    const olgas = await create(olga, ${helper}('Olga’s own'))
    expect((await mutate('update', max, { id: mine, ${s.entity}: ${helper}('Max’s, changed') })).error).toBeUndefined()
    const refused = await mutate('update', max, { id: olgas, ${s.entity}: ${helper}('Taken over') })
    expect(refused.error?.appCode).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
    expect((await mutate('delete', max, { ids: [mine, olgas] })).error?.appCode).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
    expect((await mutate('update', olga, { id: mine, ${s.entity}: ${helper}('Changed by Olga') })).error).toBeUndefined()
    const names = (await list(olga, { q: 'own' })).items.map((item) => item.${name})
    expect(names).toEqual(expect.arrayContaining(['Olga’s own']))
  })

  it('deletes into the bin and restores from it', async () => {
    const id = await create(max, ${helper}('Binned'))
    expect((await mutate('delete', max, { ids: [id] })).error).toBeUndefined()
    expect((await query('get', max, { id })).error?.appCode).toBe('${s.entityCode}_NOT_FOUND')
    expect((await list(max, { q: 'binned' })).items).toEqual([])
    expect((await mutate('restore', max, { ids: [id] })).error).toBeUndefined()
    expect((await list(max, { q: 'binned' })).items.map((item) => item.id)).toEqual([id])
  })

  it('lets the list’s address order by exactly the definition’s sortable fields', () => {
    expect(${s.entity}SortColumns).toEqual([...sortableKeysOf(${s.entity}Entity), 'createdAt', 'updatedAt'])
  })

  it('searches, sorts by its ${s.fields[0]?.label.en.toLowerCase()} and pages by cursor', async () => {
    for (const label of ['Paged 3', 'Paged 10', 'Paged 1']) await create(olga, ${helper}(label))
    const first = await list(olga, { q: 'paged', sort: '${name}', direction: 'asc', limit: 2 })
    expect(first.total).toBe(3)
    expect(first.items.map((item) => item.${name})).toEqual(['Paged 1', 'Paged 3'])
    const second = await list(olga, { q: 'paged', sort: '${name}', direction: 'asc', limit: 2, after: first.nextCursor })
    expect(second.items.map((item) => item.${name})).toEqual(['Paged 10'])
    expect(second.nextCursor).toBeUndefined()
  })

  it('exports CSV that imports as the same ${s.english.manyInSentence}, and refuses a file with problems whole', async () => {
    await create(olga, complete('Round trip'))
    const exported = await query<{ csv: string; count: number }>('exportCsv', olga, { q: 'round trip' })
    expect(exported.data?.count).toBe(1)
    const again = (exported.data?.csv ?? '').replace('Round trip', 'Round trip again')
    const preview = await mutate<{ rowCount: number; issueCount: number }>('import', olga, { csv: again, dryRun: true })
    expect(preview.data).toMatchObject({ rowCount: 1, issueCount: 0 })
    expect((await mutate('import', olga, { csv: again, dryRun: false })).error).toBeUndefined()
    const listed = await list(olga, { q: 'round trip again' })
    const imported = await query<Record<string, unknown>>('get', olga, { id: listed.items[0]?.id })
    expect(imported.data).toMatchObject(complete('Round trip again'))
    // The second row's ${s.fields[0]?.label.en.toLowerCase()} is too long: the first row is not written either.
    const csv = \`${nameColumn}\\nFine\\n\${'x'.repeat(${fieldLimits.text + 1})}\`
    const broken = await mutate('import', olga, { csv, dryRun: false })
    expect(broken.error?.appCode).toBe('${s.entityCode}_IMPORT_HAS_ERRORS')
    expect((await list(olga, { q: 'fine' })).items).toEqual([])
  })

  it('shows nothing of one organization to another', async () => {
    const id = await create(olga, ${helper}('Studio secret'))
    expect((await query('get', nora, { id })).error?.appCode).toBe('${s.entityCode}_NOT_FOUND')
    expect((await list(nora, { q: 'studio secret' })).items).toEqual([])
    expect((await mutate('delete', nora, { ids: [id] })).error?.appCode).toBe('${s.entityCode}_NOT_FOUND')
  })
})
`
}

export function permissionGrantsFile(spec: NewAppSpec): string {
  const r = spec.entity
  return `// The ${spec.english.manyInSentence}' rows of the permission matrix (tests/integration/organization-permissions.test.ts), written out
// by hand rather than read from permissions.ts: owners and admins do anything, members add and read and change only
// their own.
export const permissionGrants = {
  everyAction: { ${r}: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'] },
  owner: { ${r}: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'] },
  admin: { ${r}: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'] },
  member: { ${r}: ['create', 'read', 'update-own', 'delete-own'] },
}
`
}

export function foreignRecordInputsFile(spec: NewAppSpec): string {
  const s = spec
  const t = s.router
  const name = s.fields[0]?.key ?? ''
  const helper = `${s.entity}With${upper(name)}`
  return `import type { Database } from '#/server/db/client'
import type { ForeignRecords } from '../../../../tests/integration/foreign-records'
import { ${helper} } from '../schemas'
import { add${s.Entity} } from '../server/${s.entityFile}-queries'

export const foreignRecordKinds = ['${s.entity}']
export const foreignRecordSecrets = ['Not yours']

/** A ${s.english.oneInSentence} of the other organization, and the procedures that take one, as the authorization matrix calls them. */
export async function foreignRecordInputs(db: Database, foreign: ForeignRecords): Promise<Record<string, unknown>> {
  const id = await add${s.Entity}(db, {
    organizationId: foreign.organizationId,
    ownerId: foreign.ownerId,
    record: ${helper}('Not yours'),
  })
  return {
    '${t}.get': { id },
    '${t}.update': { id, ${s.entity}: ${helper}('Taken over') },
    '${t}.delete': { ids: [id] },
    '${t}.restore': { ids: [id] },
  }
}
`
}

export function routeFuzzTargetsFile(spec: NewAppSpec): string {
  const s = spec
  const keys = ['id', 'q', 'limit', 'after', ...s.fields.map((field) => field.key)]
  return `// The ${s.english.manyInSentence}' MCP tools for the fuzzer (tests/fuzz/api-routes.test.ts): hostile JSON-RPC calls of each tool.
import fc from 'fast-check'
import { answerMcpRequest } from '#/server/mcp'
import { hostileValue } from '../../../../tests/fuzz/arbitraries'
import type { RouteFuzzContext, RouteFuzzTarget } from '../../../../tests/fuzz/route-targets'
import { ${s.entity}McpTools } from '../server/mcp-tools'

export function routeFuzzTargets({ db, nextIp }: RouteFuzzContext): RouteFuzzTarget[] {
  return [
    {
      target: 'POST|GET|DELETE /api/mcp (${s.entitySnake} tools)',
      path: () => '/api/mcp',
      methods: ['POST', 'GET', 'DELETE'],
      call: (request) => answerMcpRequest(request, { db: db(), clientIp: nextIp(), toolSets: [${s.entity}McpTools] }),
      body: fc.oneof(
        fc.record({
          jsonrpc: fc.constantFrom('2.0', '1.0', hostileValue),
          id: fc.oneof(fc.integer(), hostileValue),
          method: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping'),
          params: fc.oneof(
            fc.record({
              name: fc.constantFrom('list_${s.table}', 'get_${s.entitySnake}', 'create_${s.entitySnake}', 'nope'),
              arguments: fc.dictionary(fc.constantFrom(${keys.map((key) => `'${key}'`).join(', ')}), hostileValue),
            }),
            hostileValue,
          ),
        }),
        fc.array(hostileValue, { maxLength: 3 }),
      ),
    },
  ]
}
`
}

export function e2eSpecFile(spec: NewAppSpec): string {
  const s = spec
  const first = s.fields[0]
  const fill = (field: NewField) =>
    field.kind === 'list'
      ? `'One, Two'`
      : field.kind === 'longtext'
        ? `'A few lines'`
        : sampleValue(field).replace('\\n', ' ')
  const others = s.fields
    .slice(1)
    .map((field) => `      await form.getByLabel('${field.label.en}', { exact: true }).fill(String(${fill(field)}))`)
    .join('\n')
  return `import type { Page } from '@playwright/test'
import { signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

const row = (page: Page, text: string) => page.getByTestId('${s.entityFile}-row').filter({ hasText: text })

async function open${upper(s.router)}(page: Page, lang: 'en' | 'zh' = 'en') {
  await visit(page, \`/\${lang}/console/${s.app}\`)
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}

test.describe('${s.english.manyInSentence}', () => {
  test('a ${s.english.oneInSentence} is added with every field, opened, edited, deleted and brought back', async ({ page }) => {
    await signUpNewAccount(page)
    await open${upper(s.router)}(page)
    await expect(page.getByTestId('empty-state')).toContainText('No ${s.english.manyInSentence} yet')

    await page.getByRole('button', { name: 'New ${s.english.oneInSentence}' }).first().click()
    const form = page.getByRole('form', { name: 'New ${s.english.oneInSentence}' })
    await form.getByLabel('${first?.label.en}', { exact: true }).fill('First of them')
${others}
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(form).toHaveCount(0)
    await expect(row(page, 'First of them')).toBeVisible()

    await row(page, 'First of them').getByRole('link', { name: 'First of them' }).click()
    await expect(page.getByRole('heading', { name: 'First of them' })).toBeVisible()
    await page.getByRole('button', { name: 'Edit' }).click()
    const edit = page.getByRole('form', { name: 'Edit ${s.english.oneInSentence}' })
    await edit.getByLabel('${first?.label.en}', { exact: true }).fill('Renamed')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('heading', { name: 'Renamed' })).toBeVisible()

    await page.getByRole('button', { name: 'Delete' }).click()
    await expect(page).toHaveURL(/\\/console\\/${s.app}$/)
    await page.getByRole('button', { name: 'Undo' }).click()
    await expect(row(page, 'Renamed')).toBeVisible()
  })

  test('the page speaks Chinese', async ({ page }) => {
    await signUpNewAccount(page)
    await open${upper(s.router)}(page, 'zh')
    await expect(page.getByRole('heading', { name: '${s.label.zh}', exact: true })).toBeVisible()
    await expect(page.getByTestId('empty-state')).toContainText('还没有${s.label.zh}')
  })
})
`
}
