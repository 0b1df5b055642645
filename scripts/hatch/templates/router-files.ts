// The generated app's tRPC router: every procedure with its permission check, publishing its events.
import type { NewAppSpec } from '../new-app-spec.ts'
import { upper } from './server-files.ts'

export function routerFile(spec: NewAppSpec): string {
  const s = spec
  const t = s.router
  const name = s.fields[0]?.key ?? ''
  return `import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import { type Action, denialMessage } from '#/lib/access-control'
import { ${t}, users } from '#/server/db/schema'
import { publishEvent, type RecordedEvent, recordEvent, sendRecordedEvents } from '#/server/organization-events'
import { AppError, createRouter, orgProcedure } from '#/server/trpc/init'
import { mayChange${s.Entity} } from '../${s.entityFile}-rules'
import {
  ${s.entity}Filters,
  ${s.entity}IdInput,
  ${s.entity}IdsInput,
  ${s.entity}Input,
  ${s.entity}ListInput,
  import${s.Entity}CsvInput,
  update${s.Entity}Input,
} from '../schemas'
import { ${s.entity}Conditions, ${s.entity}Columns, list${upper(t)}, new${s.Entity}Id } from './${s.entityFile}-queries'
import { ${s.entity}EventData } from './${s.entityFile}-event-data'
import { ${t}ToCsv, firstIssues, parse${upper(t)}Csv } from './${s.entityFile}-csv'
import '../${s.entityFile}-messages'

const notFound = () =>
  new AppError({ code: 'NOT_FOUND', appCode: '${s.entityCode}_NOT_FOUND', message: 'This ${s.english.oneInSentence} does not exist' })

interface Caller {
  user: { id: string }
  permissions: { ${s.entity}?: readonly Action[] }
}

/** \`update\` (or \`delete\`) allows any row; \`update-own\` (or \`delete-own\`) the caller's own. One refused row refuses all. */
function requireAction(ctx: Caller, action: 'update' | 'delete', rows: { createdById: string | null }[]) {
  const own = rows.every((row) => row.createdById === ctx.user.id)
  if (mayChange${s.Entity}(ctx.permissions.${s.entity} ?? [], action, own)) return
  throw new AppError({
    code: 'FORBIDDEN',
    appCode: 'NOT_ALLOWED_TO_ACCESS_RESOURCE',
    message: denialMessage({ ${s.entity}: [action] }),
    params: { resource: '${s.entity}' },
  })
}

const live = (organizationId: string) => and(eq(${t}.organizationId, organizationId), isNull(${t}.deletedAt))

export const ${t}Router = createRouter({
  /** A page of the active organization's ${s.english.manyInSentence}, searched and sorted. */
  list: orgProcedure({ ${s.entity}: ['read'] })
    .input(${s.entity}ListInput)
    .query(({ ctx, input }) => list${upper(t)}(ctx.db, ctx.organization.id, input)),

  get: orgProcedure({ ${s.entity}: ['read'] })
    .input(${s.entity}IdInput)
    .query(async ({ ctx, input }) => {
      const [row] = await ctx.db
        .select({ record: ${t}, createdByName: users.name })
        .from(${t})
        .leftJoin(users, eq(users.id, ${t}.createdById))
        .where(and(eq(${t}.id, input.id), live(ctx.organization.id)))
      if (!row) throw notFound()
      const { searchText: _search, deletedAt: _deleted, organizationId: _organization, ...record } = row.record
      return { ...record, createdByName: row.createdByName }
    }),

  create: orgProcedure({ ${s.entity}: ['create'] })
    .input(${s.entity}Input)
    .mutation(async ({ ctx, input }) => {
      const now = new Date()
      const [created] = await ctx.db
        .insert(${t})
        .values({
          id: new${s.Entity}Id(),
          organizationId: ctx.organization.id,
          createdById: ctx.user.id,
          createdAt: now,
          updatedAt: now,
          ...${s.entity}Columns(input),
        })
        .returning()
      if (!created) throw notFound()
      await publishEvent(ctx.db, {
        organizationId: ctx.organization.id,
        type: '${s.entityFile}.created',
        data: ${s.entity}EventData(created),
      })
      return { id: created.id }
    }),

  update: orgProcedure({})
    .input(update${s.Entity}Input)
    .mutation(async ({ ctx, input }) => {
      const [existing] = await ctx.db
        .select({ id: ${t}.id, createdById: ${t}.createdById })
        .from(${t})
        .where(and(eq(${t}.id, input.id), live(ctx.organization.id)))
      if (!existing) throw notFound()
      requireAction(ctx, 'update', [existing])
      const [updated] = await ctx.db
        .update(${t})
        .set({ ...${s.entity}Columns(input.${s.entity}), updatedAt: new Date() })
        .where(and(eq(${t}.id, existing.id), isNull(${t}.deletedAt)))
        .returning()
      if (!updated) throw notFound()
      await publishEvent(ctx.db, {
        organizationId: ctx.organization.id,
        type: '${s.entityFile}.updated',
        data: ${s.entity}EventData(updated),
      })
      return { id: updated.id, updatedAt: updated.updatedAt }
    }),

  /** Moves rows to the bin, whence \`restore\` brings them back. */
  delete: orgProcedure({})
    .input(${s.entity}IdsInput)
    .mutation(async ({ ctx, input }) => {
      const ids = [...new Set(input.ids)]
      const rows = await ctx.db
        .select({ id: ${t}.id, createdById: ${t}.createdById })
        .from(${t})
        .where(and(inArray(${t}.id, ids), live(ctx.organization.id)))
      if (rows.length !== ids.length) throw notFound()
      requireAction(ctx, 'delete', rows)
      const deletedAt = new Date()
      await ctx.db
        .transaction(async (tx) => {
          await tx
            .update(${t})
            .set({ deletedAt })
            .where(and(inArray(${t}.id, ids), eq(${t}.organizationId, ctx.organization.id)))
          const deliveries: RecordedEvent[] = []
          for (const id of ids) {
            deliveries.push(
              ...(await recordEvent(tx, {
                organizationId: ctx.organization.id,
                type: '${s.entityFile}.deleted',
                data: { id, deletedAt: deletedAt.toISOString() },
              })),
            )
          }
          return deliveries
        })
        .then(sendRecordedEvents)
      return { ids }
    }),

  /** Undoes a delete; a restored row comes back as \`${s.entityFile}.updated\` with all of it. */
  restore: orgProcedure({})
    .input(${s.entity}IdsInput)
    .mutation(async ({ ctx, input }) => {
      const ids = [...new Set(input.ids)]
      const rows = await ctx.db
        .select({ id: ${t}.id, createdById: ${t}.createdById })
        .from(${t})
        .where(and(inArray(${t}.id, ids), eq(${t}.organizationId, ctx.organization.id), isNotNull(${t}.deletedAt)))
      if (rows.length !== ids.length) throw notFound()
      requireAction(ctx, 'delete', rows)
      await ctx.db
        .transaction(async (tx) => {
          const restored = await tx
            .update(${t})
            .set({ deletedAt: null })
            .where(and(inArray(${t}.id, ids), eq(${t}.organizationId, ctx.organization.id)))
            .returning()
          const deliveries: RecordedEvent[] = []
          for (const row of restored) {
            deliveries.push(
              ...(await recordEvent(tx, {
                organizationId: ctx.organization.id,
                type: '${s.entityFile}.updated',
                data: ${s.entity}EventData(row),
              })),
            )
          }
          return deliveries
        })
        .then(sendRecordedEvents)
      return { ids }
    }),

  /**
   * Imports a CSV file: \`dryRun\` checks every row and answers a preview; otherwise all rows are written in one
   * transaction, or, when any row has a problem, none.
   */
  import: orgProcedure({ ${s.entity}: ['create'] })
    .input(import${s.Entity}CsvInput)
    .mutation(async ({ ctx, input }) => {
      const parsed = parse${upper(t)}Csv(input.csv)
      const report = {
        rowCount: parsed.rowCount,
        preview: parsed.records.slice(0, 10).map(({ line, record }) => ({ line, ${name}: record.${name} })),
        ...firstIssues(parsed.issues),
      }
      if (input.dryRun) return { ...report, imported: 0 }
      if (parsed.issues.length > 0) {
        throw new AppError({
          code: 'BAD_REQUEST',
          appCode: '${s.entityCode}_IMPORT_HAS_ERRORS',
          message: 'The file has problems; nothing was imported',
        })
      }
      const now = new Date()
      const rows = parsed.records.map(({ record }) => ({
        id: new${s.Entity}Id(),
        organizationId: ctx.organization.id,
        createdById: ctx.user.id,
        createdAt: now,
        updatedAt: now,
        ...${s.entity}Columns(record),
      }))
      const inserted = await ctx.db.transaction(async (tx) => {
        const written: (typeof ${t}.$inferSelect)[] = []
        for (let start = 0; start < rows.length; start += 500) {
          written.push(...(await tx.insert(${t}).values(rows.slice(start, start + 500)).returning()))
        }
        const deliveries: RecordedEvent[] = []
        for (const row of written) {
          deliveries.push(
            ...(await recordEvent(tx, {
              organizationId: ctx.organization.id,
              type: '${s.entityFile}.created',
              data: ${s.entity}EventData(row),
            })),
          )
        }
        return deliveries
      })
      await sendRecordedEvents(inserted)
      return { ...report, imported: rows.length }
    }),

  /** The ${s.english.manyInSentence} the search selects, as CSV, in the list's order. */
  exportCsv: orgProcedure({ ${s.entity}: ['read'] })
    .input(${s.entity}Filters)
    .query(async ({ ctx, input }) => {
      const order = input.direction === 'asc' ? sql\`asc\` : sql\`desc\`
      const rows = await ctx.db
        .select()
        .from(${t})
        .where(${s.entity}Conditions(ctx.organization.id, input))
        .orderBy(sql\`\${${t}[input.sort]} \${order}\`, sql\`\${${t}.id} \${order}\`)
      return { filename: \`${s.app}-\${ctx.organization.slug}.csv\`, csv: ${t}ToCsv(rows), count: rows.length }
    }),
})
`
}
