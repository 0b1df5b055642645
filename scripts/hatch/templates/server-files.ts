// The generated app's server side: its table, its queries, its tRPC router with a policy row per procedure, and what it
// declares for shared places (permissions, event kinds, the server manifest with its MCP tools).
import type { NewAppSpec, NewField } from '../new-app-spec.ts'

function columnOf(field: NewField): string {
  const name = `'${field.column}'`
  const notNull = field.required ? '.notNull()' : ''
  switch (field.kind) {
    case 'list':
      return `text(${name}).array().notNull().default(sql\`'{}'::text[]\`)`
    case 'longtext':
      return `text(${name}).notNull().default('')`
    case 'integer':
    case 'year':
      return `integer(${name})${notNull}`
    default:
      return `text(${name})${notNull}`
  }
}

export function schemaFile(spec: NewAppSpec): string {
  const s = spec
  const first = s.fields[0]?.key ?? ''
  const usesInteger = s.fields.some((field) => field.kind === 'integer' || field.kind === 'year')
  return `import { sql } from 'drizzle-orm'
import { index, ${usesInteger ? 'integer, ' : ''}pgTable, text, timestamp } from 'drizzle-orm/pg-core'
// Relative paths: drizzle-kit loads the schema outside the project's path aliases. Only read inside the lazy
// \`references\` callbacks, so the import cycle with the core's schema.ts is harmless.
import { organizations } from '../../../server/db/organization-schema'
import { users } from '../../../server/db/schema'

/** The organizations' ${s.english.manyInSentence}: one column per field of the definition (${s.entityFile}-entity.ts), then the bookkeeping. */
export const ${s.router} = pgTable(
  '${s.table}',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
${s.fields.map((field) => `    ${field.key}: ${columnOf(field)},`).join('\n')}
    /** Lower-cased searchable fields: what the list's search box matches, Chinese included. */
    searchText: text('search_text').notNull().default(''),
    createdById: text('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by a delete; \`restore\` brings the row back. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    // The list's default order and its order by ${first}, over live rows only (keyset pages read them in order).
    index('${s.table}_organization_created_idx')
      .on(table.organizationId, table.createdAt, table.id)
      .where(sql\`\${table.deletedAt} is null\`),
    index('${s.table}_organization_${s.fields[0]?.column}_idx')
      .on(table.organizationId, sql\`natural_sort_key(\${table.${first}})\`, table.id)
      .where(sql\`\${table.deletedAt} is null\`),
  ],
)
`
}

export function queriesFile(spec: NewAppSpec): string {
  const s = spec
  return `import { randomBytes } from 'node:crypto'
import { and, eq, isNull, like, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { type EntityField, isListed, keysWhere, type ListedKeys, searchedTextsOf } from '#/lib/entity'
import type { Database } from '#/server/db/client'
import { keysetPage, keysetQuery, type SortKey } from '#/server/db/keyset'
import { ${s.router}, users } from '#/server/db/schema'
import { ${s.entity}Entity } from '../${s.entityFile}-entity'
import type { ${s.Entity}Filters, ${s.Entity}Input } from '../schemas'
import type { ${s.Entity}SortColumn } from '../search'

/** Ids that sort in creation order, so rows added in the same instant keep their order. */
let lastMillis = 0
let sequence = 0
export function new${s.Entity}Id(): string {
  const now = Date.now()
  sequence = now === lastMillis ? sequence + 1 : 0
  lastMillis = now
  return \`\${now.toString(16).padStart(12, '0')}\${sequence.toString(16).padStart(6, '0')}\${randomBytes(7).toString('hex')}\`
}

/** Numbers by value and text in natural order ("No. 9" before "No. 10"), a missing value last either way. */
function sortKeyOf(sort: ${s.Entity}SortColumn): SortKey {
  if (sort === 'createdAt' || sort === 'updatedAt') {
    return { expression: () => sql\`\${${s.router}[sort]}\`, type: 'timestamptz' }
  }
  const column = ${s.router}[sort] as AnyPgColumn
  const field = ${s.entity}Entity.fields[sort] as EntityField
  if (field.kind === 'integer') {
    return {
      expression: (direction) =>
        sql\`coalesce(\${column}, \${sql.raw(direction === 'asc' ? '2147483647' : '-2147483648')})\`,
      type: 'integer',
    }
  }
  return { expression: () => sql\`natural_sort_key(coalesce(\${column}, ''))\`, type: 'text' }
}

/** \`%\` and \`_\` typed into the search box are searched for, not wildcards. */
const containing = (text: string) => \`%\${text.replace(/[\\\\%_]/g, (char) => \`\\\\\${char}\`)}%\`

/** The live ${s.english.manyInSentence} of one organization that the search selects. */
export function ${s.entity}Conditions(organizationId: string, filters: Partial<${s.Entity}Filters>): SQL {
  const conditions: (SQL | undefined)[] = [eq(${s.router}.organizationId, organizationId), isNull(${s.router}.deletedAt)]
  if (filters.q) conditions.push(like(${s.router}.searchText, containing(filters.q.toLowerCase())))
  return and(...conditions) as SQL
}

/** What the list reads of each row: the definition's columns, and who added it when. */
export const ${s.entity}ListColumns = {
  id: ${s.router}.id,
  ...(Object.fromEntries(keysWhere(${s.entity}Entity, isListed).map((key) => [key, ${s.router}[key]])) as Pick<
    typeof ${s.router},
    ListedKeys<typeof ${s.entity}Entity.fields>
  >),
  createdById: ${s.router}.createdById,
  createdByName: users.name,
  createdAt: ${s.router}.createdAt,
  updatedAt: ${s.router}.updatedAt,
}

export interface ${s.Entity}PageRequest extends ${s.Entity}Filters {
  after?: string
  before?: string
  page?: number
  limit: number
}

/** One page of the list, by keyset (src/server/db/keyset.ts): stable while rows are added or removed. */
export async function list${upper(s.router)}(db: Database, organizationId: string, request: ${s.Entity}PageRequest) {
  const page = keysetQuery(sortKeyOf(request.sort), ${s.router}.id, request)
  const where = ${s.entity}Conditions(organizationId, request)
  const [rows, [counted]] = await Promise.all([
    db
      .select({ ...${s.entity}ListColumns, cursorKey: page.cursorKey })
      .from(${s.router})
      .leftJoin(users, eq(users.id, ${s.router}.createdById))
      .where(and(where, page.position))
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: sql<number>\`count(*)::int\` }).from(${s.router}).where(where),
  ])
  return { ...keysetPage(rows, page), total: counted?.count ?? 0 }
}

/** The stored columns of a valid ${s.english.oneInSentence} (what create, update and import write). */
export function ${s.entity}Columns(record: ${s.Entity}Input) {
  const searched = keysWhere(${s.entity}Entity, (field) => field.searchable === true).flatMap((key) =>
    searchedTextsOf(record[key]),
  )
  return { ...record, searchText: searched.join('\\n').toLowerCase() }
}

/** Adds a ${s.english.oneInSentence} made by \`ownerId\` and returns its id (tests and other organizations' records use it). */
export async function add${s.Entity}(
  db: Pick<Database, 'insert'>,
  { organizationId, ownerId, record }: { organizationId: string; ownerId: string; record: ${s.Entity}Input },
): Promise<string> {
  const id = new${s.Entity}Id()
  await db.insert(${s.router}).values({ id, organizationId, createdById: ownerId, ...${s.entity}Columns(record) })
  return id
}
`
}

export const upper = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

export function eventDataFile(spec: NewAppSpec): string {
  const s = spec
  return `import { eventFieldsOf } from '#/lib/entity'
import { ${s.entity}Entity } from '../${s.entityFile}-entity'
import type { ${s.router} } from './schema'

/** A ${s.english.oneInSentence} as webhook receivers get it: the definition's fields that go out, without the search column. */
export function ${s.entity}EventData(row: typeof ${s.router}.$inferSelect) {
  return {
    id: row.id,
    ...eventFieldsOf(${s.entity}Entity, row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}
`
}

export function policyFile(spec: NewAppSpec): string {
  const s = spec
  const r = s.entity
  return `import { member, type ProcedurePolicy, type RoutePolicy } from '#/server/trpc/policy-gates'

/** The ${s.english.manyInSentence}' rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  '${s.router}.list': { gate: member({ ${r}: ['read'] }) },
  '${s.router}.get': { gate: member({ ${r}: ['read'] }), names: ['${r}'] },
  '${s.router}.create': { gate: member({ ${r}: ['create'] }) },
  '${s.router}.update': {
    gate: member(),
    beyond: '${r}:update, or ${r}:update-own for those the caller made',
    names: ['${r}'],
  },
  '${s.router}.delete': {
    gate: member(),
    beyond: '${r}:delete, or ${r}:delete-own for those the caller made',
    names: ['${r}'],
  },
  '${s.router}.restore': { gate: member(), beyond: '${r}:delete, or ${r}:delete-own', names: ['${r}'] },
  '${s.router}.import': { gate: member({ ${r}: ['create'] }) },
  '${s.router}.exportCsv': { gate: member({ ${r}: ['read'] }) },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {}
`
}

export function routersFile(spec: NewAppSpec): string {
  return `import { ${spec.router}Router } from './${spec.app}-router'

/** The ${spec.english.manyInSentence}' procedures, joined to the app router (src/server/trpc/root.ts) under this name. */
export const routers = { ${spec.router}: ${spec.router}Router }
`
}

export function permissionsFile(spec: NewAppSpec): string {
  const s = spec
  return `import { m } from '#/paraglide/messages'

const statements = {
  /** A ${s.english.oneInSentence} of the organization; \`*-own\` covers only those the member created. */
  ${s.entity}: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'],
} as const

type ${s.Entity}Action = (typeof statements.${s.entity})[number][]

/** The ${s.english.manyInSentence}' resource among the organization permissions (src/lib/access-control.ts), who has it, and its words. */
export const permissions = {
  statements,
  roles: {
    owner: { ${s.entity}: ['create', 'read', 'update', 'delete', 'update-own', 'delete-own'] as ${s.Entity}Action },
    admin: {},
    member: { ${s.entity}: ['create', 'read', 'update-own', 'delete-own'] as ${s.Entity}Action },
  },
  labels: { ${s.entity}: m.perm_resource_${s.entitySnake} },
}
`
}

export function eventKindsFile(spec: NewAppSpec): string {
  const s = spec
  return `import { defineEventKinds } from '#/lib/event-kinds'
import { m } from '#/paraglide/messages'

/** What the ${s.english.manyInSentence} app reports happening in an organization (src/lib/event-kinds.ts). */
export const eventKinds = defineEventKinds([
  { type: '${s.entityFile}.created', label: m.event_${s.entitySnake}_created },
  { type: '${s.entityFile}.updated', label: m.event_${s.entitySnake}_updated },
  { type: '${s.entityFile}.deleted', label: m.event_${s.entitySnake}_deleted },
])
`
}

export function serverAppFile(spec: NewAppSpec): string {
  return `import { defineServerApp } from '#/server/app-manifest'

/** ${spec.english.many}: the organizations' records, and tools for models on the MCP server. */
export const serverApp = defineServerApp({
  name: '${spec.app}',
  mcpTools: async () => (await import('./mcp-tools')).${spec.entity}McpTools,
})
`
}
