// The generated app's definition of its entity and what both sides derive from it: the rules, the schemas, the
// list's address, and the words of its refusals.
import type { NewAppSpec, NewField } from '../new-app-spec.ts'

export const fieldLimits = {
  text: 200,
  longtext: 5000,
  listEntries: 20,
  listEntry: 120,
  url: 2000,
  yearMin: 1000,
} as const

/** The message keys a field's rule names, with what each message says in both languages. */
export function fieldMessageKeys(spec: NewAppSpec, field: NewField): string[] {
  const stem = `validation_${spec.table}_${field.column}`
  switch (field.kind) {
    case 'text':
    case 'longtext':
      return [`${stem}_too_long`]
    case 'list':
      return [`${stem}_invalid`, `${stem}_too_many`, `${stem}_entry_too_long`]
    default:
      return [`${stem}_invalid`]
  }
}

const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`

function ruleOf(spec: NewAppSpec, field: NewField): string {
  const [first, second, third] = fieldMessageKeys(spec, field).map(quote)
  const requiredList = field.required ? `.min(1, 'validation_required')` : ''
  const nullable = field.required ? '' : '.nullable()'
  switch (field.kind) {
    case 'text':
      return field.required
        ? `storableString('validation_required').trim().min(1, 'validation_required').max(${spec.router}Limits.text, ${first})`
        : `optionalText(${spec.router}Limits.text, ${first})`
    case 'longtext':
      return `storableString()${field.required ? `.trim().min(1, 'validation_required')` : ''}.max(${spec.router}Limits.longText, ${first}).transform((value) => value.trim())`
    case 'list':
      return `z.preprocess(
      splitList,
      z
        .array(storableString().max(${spec.router}Limits.listEntry, ${third}), ${first})
        ${requiredList}.max(${spec.router}Limits.listEntries, ${second}),
    )`
    case 'integer':
      return `z.preprocess(wholeNumberFromText, z.number(${first}).int(${first}).min(-2_147_483_648, ${first}).max(2_147_483_647, ${first})${nullable})`
    case 'year':
      return `z.preprocess(
      wholeNumberFromText,
      z
        .number(${first})
        .int(${first})
        .min(${spec.router}Limits.yearMin, ${first})
        .refine((year) => year <= latestYear(), ${first})${nullable},
    )`
    case 'url':
      return `z.preprocess(
      emptyToNull,
      z
        .string(${first})
        .trim()
        .max(${spec.router}Limits.url, ${first})
        .refine(isWebAddress, ${first})${nullable},
    )`
  }
}

function messagesOf(spec: NewAppSpec, field: NewField): string {
  const limit = (name: string) => `{ max: String(${spec.router}Limits.${name}) }`
  const params: Record<string, string> = {
    too_long: limit(field.kind === 'longtext' ? 'longText' : 'text'),
    too_many: limit('listEntries'),
    entry_too_long: limit('listEntry'),
    invalid: field.kind === 'year' ? `{ min: String(${spec.router}Limits.yearMin), max: String(latestYear()) }` : '',
  }
  const entries = fieldMessageKeys(spec, field).map((key) => {
    const ending = key.slice(`validation_${spec.table}_${field.column}_`.length)
    return `      ${key}: () => m.${key}(${params[ending] ?? ''}),`
  })
  return `{\n${entries.join('\n')}\n    }`
}

const kindOf = (field: NewField) =>
  ({ text: 'text', longtext: 'longText', list: 'list', integer: 'integer', year: 'integer', url: 'url' })[field.kind]

/** The list orders by the first field and by every one-line text or number. */
const isSortableField = (field: NewField, index: number) =>
  index === 0 || ['text', 'integer', 'year'].includes(field.kind)

function fieldDefinition(spec: NewAppSpec, field: NewField, index: number): string {
  const sortable = isSortableField(field, index)
  const lines = [
    `kind: '${kindOf(field)}',`,
    field.required ? 'required: true,' : '',
    `rule: ${ruleOf(spec, field)},`,
    `label: m.${spec.table}_field_${field.column},`,
    index === 0
      ? 'column: { sortable: true, hideable: false },'
      : field.kind === 'longtext'
        ? 'column: false,'
        : sortable
          ? 'column: { sortable: true },'
          : '',
    ['text', 'list'].includes(field.kind) ? 'searchable: true,' : '',
    ['integer', 'year'].includes(field.kind) ? 'short: true,' : '',
    // The first field is the record's name: the details page shows it as its title.
    index === 0 ? 'details: false,' : '',
    `messages: ${messagesOf(spec, field)},`,
  ].filter(Boolean)
  return `  ${field.key}: {\n${lines.map((line) => `    ${line}`).join('\n')}\n  },`
}

export function entityFile(spec: NewAppSpec): string {
  const kinds = new Set(spec.fields.map((field) => field.kind))
  const imports = ['defineEntity', 'type EntityTexts', 'type EntityValues']
  if (kinds.has('url')) imports.push('emptyToNull')
  if (spec.fields.some((field) => field.kind === 'text' && !field.required)) imports.push('optionalText')
  if (kinds.has('list')) imports.push('splitList')
  const needsZod = kinds.has('list') || kinds.has('integer') || kinds.has('year') || kinds.has('url')
  const needsStorable =
    kinds.has('list') || kinds.has('longtext') || spec.fields.some((f) => f.kind === 'text' && f.required)
  const rules = [`${spec.router}Limits`]
  if (kinds.has('year')) rules.push('latestYear')
  if (kinds.has('url')) rules.push('isWebAddress')
  if (kinds.has('integer') || kinds.has('year')) rules.push('wholeNumberFromText')
  return `import { ${imports.join(', ')} } from '#/lib/entity'
${needsStorable ? "import { storableString } from '#/lib/stored-text'\n" : ''}${needsZod ? "import { z } from '#/lib/zod'\n" : ''}import { m } from '#/paraglide/messages'
import { ${rules.sort().join(', ')} } from './${spec.entityFile}-rules'

/**
 * A ${spec.english.oneInSentence}, defined once (src/lib/entity.ts): the form, the list's columns, the details, CSV, webhooks, the MCP
 * tools and the stored columns all follow it. To add a field: add it here, add its column to server/schema.ts with a
 * migration (npm run db:generate), and its words to messages/en.json and messages/zh.json.
 */
export const ${spec.entity}Entity = defineEntity({
${spec.fields.map((field, index) => fieldDefinition(spec, field, index)).join('\n')}
})

export type ${spec.Entity}Input = EntityValues<typeof ${spec.entity}Entity.fields>
export type ${spec.Entity}FormValues = EntityTexts<typeof ${spec.entity}Entity.fields>
`
}

export function rulesFile(spec: NewAppSpec): string {
  return `// The ${spec.english.manyInSentence}' limits (the definition's rules enforce them, its messages name them) and who may change one.

export const ${spec.router}Limits = {
  text: ${fieldLimits.text},
  longText: ${fieldLimits.longtext},
  listEntries: ${fieldLimits.listEntries},
  listEntry: ${fieldLimits.listEntry},
  url: ${fieldLimits.url},
  yearMin: ${fieldLimits.yearMin},
  pageSizeMax: 100,
  bulkMax: 500,
  /** Rows one CSV import may write, in one transaction inside its request. */
  importRowsMax: 1000,
  /** Within the production server's body limit (src/lib/request-body-limit.ts), so the upload is never cut off. */
  importBytesMax: 1_000_000,
} as const

/** The latest year a year field takes: next year, for what is announced ahead. */
export const latestYear = () => new Date().getFullYear() + 1

/** A form's text "1999" as the number it holds; empty text as nothing; anything else as given, for the rule to refuse. */
export function wholeNumberFromText(value: unknown): unknown {
  if (typeof value !== 'string') return value
  if (value.trim() === '') return null
  return /^\\s*-?\\d+\\s*$/.test(value) ? Number(value) : value
}

/** An http(s) address. */
export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

/** \`${spec.entity}:update\` (or \`delete\`) allows it on any ${spec.english.oneInSentence}; \`update-own\` (or \`delete-own\`) on the person's own. */
export function mayChange${spec.Entity}(granted: readonly string[], action: 'update' | 'delete', own: boolean): boolean {
  return granted.includes(action) || (own && granted.includes(\`\${action}-own\`))
}
`
}

export function schemasFile(spec: NewAppSpec): string {
  const s = spec
  return `import { emptyRecordOf, formSchemaOf, inputSchemaOf } from '#/lib/entity'
import { listPageNumber } from '#/lib/list-schemas'
import { recordId, storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { type ${s.Entity}FormValues, type ${s.Entity}Input, ${s.entity}Entity } from './${s.entityFile}-entity'
import { ${s.router}Limits } from './${s.entityFile}-rules'
import { ${s.entity}SortColumns } from './search'

export type { ${s.Entity}FormValues, ${s.Entity}Input }

/** A ${s.english.oneInSentence} as the form, the CSV import and the procedures take it (its definition). */
export const ${s.entity}Input = inputSchemaOf(${s.entity}Entity)

/** The same rules for the form, whose inputs all hold text. */
export const ${s.entity}FormSchema = formSchemaOf(${s.entity}Entity)

export const ${s.entity}IdInput = z.object({ id: recordId() })
export const update${s.Entity}Input = z.object({ id: recordId(), ${s.entity}: ${s.entity}Input })
export const ${s.entity}IdsInput = z.object({ ids: z.array(recordId()).min(1).max(${s.router}Limits.bulkMax) })

/** The list's search and order: the list procedure and the CSV export both take them. */
export const ${s.entity}Filters = z.object({
  q: storableString().trim().max(200).optional(),
  sort: z.enum(${s.entity}SortColumns).default('createdAt'),
  direction: z.enum(['asc', 'desc']).default('desc'),
})
export type ${s.Entity}Filters = z.output<typeof ${s.entity}Filters>

export const ${s.entity}ListInput = ${s.entity}Filters.extend({
  /** An opaque position from the previous answer: the page after it, or before it. */
  after: z.string().max(1000).optional(),
  before: z.string().max(1000).optional(),
  page: listPageNumber.optional(),
  limit: z.number().int().min(1).max(${s.router}Limits.pageSizeMax).default(25),
})

/** The whole CSV file as text; the server parses it, so the preview and the import check the same way. */
export const import${s.Entity}CsvInput = z.object({
  csv: z.string().max(${s.router}Limits.importBytesMax, 'validation_${s.table}_import_too_large'),
  /** Only check and preview; write nothing. */
  dryRun: z.boolean(),
})

/** A ${s.english.oneInSentence} with only its ${s.fields[0]?.label.en.toLowerCase()} filled in, unless \`extra\` says otherwise (tests use it). */
export const ${s.entity}With${upperFirst(s.fields[0]?.key ?? '')} = (${s.fields[0]?.key}: string, extra: Partial<${s.Entity}Input> = {}): ${s.Entity}Input => ({
  ...emptyRecordOf(${s.entity}Entity, { ${s.fields[0]?.key} }),
  ...extra,
})
`
}

export const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

export function searchFile(spec: NewAppSpec): string {
  const s = spec
  const sortable = s.fields.filter(isSortableField).map((field) => `'${field.key}'`)
  return `import { listDirection, listPage, listPageSize, oneOf, searchParams, text } from '#/lib/url-search'

/**
 * The list's orders: the definition's sortable fields, then when a ${s.english.oneInSentence} was added or changed.
 * Written out rather than read from the definition: every page reads the list's address, and the definition brings zod
 * and the app's words with it. The app's test fails when the two disagree.
 */
export const ${s.entity}SortColumns = [${[...sortable, "'createdAt'", "'updatedAt'"].join(', ')}] as const
export type ${s.Entity}SortColumn = (typeof ${s.entity}SortColumns)[number]

/** The list's address: a mangled or outdated parameter is dropped rather than refused. */
export const ${s.entity}ListSearch = searchParams({
  q: text(200),
  sort: oneOf(${s.entity}SortColumns),
  direction: listDirection,
  page: listPage,
  size: listPageSize,
})
export type ${s.Entity}ListSearch = ReturnType<typeof ${s.entity}ListSearch>
`
}

export function messagesModuleFile(spec: NewAppSpec): string {
  const s = spec
  return `import { addFeatureMessages } from '#/lib/errors'
import { m } from '#/paraglide/messages'
import { ${s.router}Limits } from './${s.entityFile}-rules'

// The ${s.english.manyInSentence}' refusals and the import's messages, registered where they are shown (the screens) and
// served (the router), so they ship with those and leave with the app. The fields' own are in the definition.
addFeatureMessages({
  validation_${s.table}_import_too_large: () => m.validation_${s.table}_import_too_large(),
  ${s.table}_import_missing_column: () => m.${s.table}_import_missing_column({ column: '${s.fields[0]?.column}' }),
  ${s.table}_import_empty: () => m.${s.table}_import_empty(),
  ${s.table}_import_too_many_rows: () => m.${s.table}_import_too_many_rows({ max: String(${s.router}Limits.importRowsMax) }),
  ${s.table}_import_malformed_row: () => m.${s.table}_import_malformed_row(),
  ${s.entityCode}_NOT_FOUND: () => m.error_code_${s.entityCode}_NOT_FOUND(),
  ${s.entityCode}_IMPORT_HAS_ERRORS: () => m.error_code_${s.entityCode}_IMPORT_HAS_ERRORS(),
})
`
}
