// The generated app's CSV both ways and its MCP tools, derived from the definition.
import type { NewAppSpec } from '../new-app-spec.ts'
import { upper } from './server-files.ts'

export function csvFile(spec: NewAppSpec): string {
  const s = spec
  const t = s.router
  const first = s.fields[0]?.column ?? ''
  return `import Papa from 'papaparse'
import { csvCellsOf, csvColumnsOf, csvHeaderReader, recordFromCsvRow } from '#/lib/entity'
import { ${s.entity}Entity } from '../${s.entityFile}-entity'
import { ${t}Limits } from '../${s.entityFile}-rules'
import { type ${s.Entity}Input, ${s.entity}Input } from '../schemas'

/** The columns an export writes and an import reads, in order (an exported file imports as it is): the definition's. */
const csvColumns = csvColumnsOf(${s.entity}Entity)
export const ${s.entity}CsvColumns = csvColumns.map(({ column }) => column)
const columnOfField = new Map<string, string>(csvColumns.map(({ key, column }) => [key, column]))
const columnOf = csvHeaderReader(${s.entity}Entity)

/** One problem in a file: its line (the header is line 1), the column, and a message key (src/lib/errors.ts). */
export interface ImportIssue {
  line: number
  column: string | null
  message: string
}

const issueLimit = 200
/** A cell a spreadsheet would run as a formula (OWASP's CSV injection list): escaped on export, unescaped on import. */
const formulaStart = /^[=+\\-@\\t\\r]/
const formulaEscaped = /^'[=+\\-@\\t\\r]/

/** Reads a CSV file and checks every row as the form would; nothing here touches the database. */
export function parse${upper(t)}Csv(text: string) {
  const issues: ImportIssue[] = []
  const records: { line: number; record: ${s.Entity}Input }[] = []
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: columnOf,
    transform: (cell) => (formulaEscaped.test(cell) ? cell.slice(1) : cell),
  })
  const rowCount = parsed.data.length
  const refuse = (message: string) => ({ records, rowCount, issues: [{ line: 1, column: null, message }] })
  if (!(parsed.meta.fields ?? []).includes('${first}')) return refuse('${s.table}_import_missing_column')
  if (rowCount === 0) return refuse('${s.table}_import_empty')
  if (rowCount > ${t}Limits.importRowsMax) return refuse('${s.table}_import_too_many_rows')
  for (const error of parsed.errors) {
    // A file of one column has no delimiter to detect; Papa reads it with commas, which is right.
    if (error.type !== 'Delimiter') {
      issues.push({ line: (error.row ?? 0) + 2, column: null, message: '${s.table}_import_malformed_row' })
    }
  }
  parsed.data.forEach((row, index) => {
    const line = index + 2
    const result = ${s.entity}Input.safeParse(recordFromCsvRow(${s.entity}Entity, row))
    if (result.success) {
      records.push({ line, record: result.data })
      return
    }
    for (const issue of result.error.issues) {
      const field = issue.path[0]
      issues.push({ line, column: (typeof field === 'string' && columnOfField.get(field)) || null, message: issue.message })
    }
  })
  issues.sort((a, b) => a.line - b.line)
  return { records, rowCount, issues }
}

/** The first issues (a broken file could otherwise answer with megabytes of them), and how many there are. */
export function firstIssues(issues: ImportIssue[]) {
  return { issues: issues.slice(0, issueLimit), issueCount: issues.length }
}

/** The rows as CSV, with a byte-order mark so spreadsheets read Chinese as UTF-8, and formulas escaped. */
export function ${t}ToCsv(rows: Record<keyof ${s.Entity}Input, unknown>[]): string {
  const data = rows.map((row) => csvCellsOf(${s.entity}Entity, row))
  return \`\\uFEFF\${Papa.unparse({ fields: ${s.entity}CsvColumns, data }, { escapeFormulae: formulaStart, newline: '\\r\\n' })}\\r\\n\`
}
`
}

export function mcpToolsFile(spec: NewAppSpec): string {
  const s = spec
  const t = s.router
  const searched = s.fields
    .filter((field) => field.kind === 'text' || field.kind === 'list')
    .map((field) => field.label.en.toLowerCase())
    .join(', ')
  return `import { recordFromTool, toolInputShapeOf } from '#/lib/entity'
import { z } from '#/lib/zod'
import { type McpToolSet, toolRefusal, toolResult } from '#/server/mcp'
import { ${s.entity}Entity } from '../${s.entityFile}-entity'
import { ${t}Limits } from '../${s.entityFile}-rules'

const ${s.entity}ToolInput = toolInputShapeOf(${s.entity}Entity)

/**
 * The ${s.english.manyInSentence} of the API key owner's active organization, through the same procedures as the console, so each
 * tool needs what the page would and is refused with the same reason.
 */
export const ${s.entity}McpTools: McpToolSet = ({ server, asKeyOwner }) => {
  if (!asKeyOwner) return
  const procedures = asKeyOwner.${t}

  server.registerTool(
    'list_${s.table}',
    {
      title: 'List ${s.english.manyInSentence}',
      description:
        "${s.english.many} of the API key owner's active organization, newest first, optionally searched (${searched}). " +
        'Pass nextCursor from an answer as \`after\` for the next page.',
      inputSchema: {
        query: z.string().max(200).optional().describe('Words to search for'),
        limit: z.number().int().min(1).max(${t}Limits.pageSizeMax).default(20),
        after: z.string().max(1000).optional().describe('nextCursor from the previous answer'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit, after }) => {
      try {
        return toolResult(await procedures.list({ q: query, limit, after }))
      } catch (error) {
        return toolRefusal(error)
      }
    },
  )

  server.registerTool(
    'get_${s.entitySnake}',
    {
      title: 'Get a ${s.english.oneInSentence}',
      description: 'One ${s.english.oneInSentence} by id (as list_${s.table} returns it).',
      inputSchema: { id: z.string().min(1).max(100) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      try {
        return toolResult(await procedures.get({ id }))
      } catch (error) {
        return toolRefusal(error)
      }
    },
  )

  server.registerTool(
    'create_${s.entitySnake}',
    {
      title: 'Create a ${s.english.oneInSentence}',
      description: "Adds a ${s.english.oneInSentence} to the API key owner's active organization (needs the create permission there).",
      inputSchema: ${s.entity}ToolInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (given) => {
      try {
        const { id } = await procedures.create(recordFromTool(${s.entity}Entity, given))
        return toolResult(await procedures.get({ id }))
      } catch (error) {
        return toolRefusal(error)
      }
    },
  )
}
`
}
