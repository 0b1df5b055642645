import { addFeatureMessages } from '#/lib/errors'
import { storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'

/**
 * One definition per entity (decision 044): each field of a record, with its rule and where it appears. The form, the
 * list's columns, the details, CSV import and export, the webhook payload, the MCP and assistant tools, the seed and
 * the stored columns are derived from it, so adding a field is its definition, a migration and its two messages.
 *
 * A field's value has one text form: what its form input holds and what its CSV cell says ("A, B" for a list, "1999"
 * for a year, "" for nothing). Its rule reads either the value or that text, so a form and a file check the same way.
 */
export type FieldKind =
  /** One line of text; `null` when left empty unless the field is required. */
  | 'text'
  /** Several lines (Markdown where the app renders it so); '' when empty. */
  | 'longText'
  /** Several short texts, written "A, B" (or 、，); [] when empty. */
  | 'list'
  /** A whole number such as a year; `null` when empty. */
  | 'integer'
  /** An http(s) address; `null` when empty. */
  | 'url'
  /** One of a fixed set of codes (`options`); `null` when empty. */
  | 'choice'

export interface EntityField {
  kind: FieldKind
  /** Checks a value or its text form and gives the stored value; its messages are message keys. */
  rule: z.ZodType
  /** Its name in the reader's language (a Paraglide message). */
  label: () => string
  /** A shorter name for the list's column header (default: `label`). */
  columnLabel?: () => string
  /** A line under the form input. */
  hint?: () => string
  /** Required fields have no empty value: a tool must give them, a seed must fill them. */
  required?: boolean
  /** A `choice`'s codes, and each code's name in the reader's language. */
  options?: { codes: readonly string[]; name: (code: string) => string; none: () => string }
  /** A column of the list (default: yes); `sortable` adds it to the list's orders. */
  column?: false | { sortable?: boolean; hideable?: boolean }
  /** Its CSV column (default: the key in snake_case) and other headers people write for it; `false`: not in CSV. */
  csv?: false | { column?: string; aliases?: readonly string[] }
  /** In what webhook receivers get (default: yes). */
  webhook?: boolean
  /** In the MCP and assistant tools that create one, with this description for the model; `false`: left out. */
  tool?: false | { description?: string }
  /** Shown on the record's own page (default: yes). */
  details?: boolean
  /** A short input that sits beside others in a row of the form. */
  short?: boolean
  /** Part of what the list's search box matches. */
  searchable?: boolean
  /**
   * The field's own messages, by the keys its rule names (`validation_<app>_<field>_too_long`), each giving its
   * values ({ max: '120' }): registered with the definition, so they are translated wherever it is loaded.
   */
  messages?: Record<string, () => string>
}

export type EntityFields = Record<string, EntityField>

export interface Entity<Fields extends EntityFields> {
  fields: Fields
  /** The keys in the order the form, the columns, the CSV and the details show them. */
  keys: readonly (keyof Fields & string)[]
}

export function defineEntity<const Fields extends EntityFields>(fields: Fields): Entity<Fields> {
  addFeatureMessages(Object.assign({}, ...Object.values(fields).map((field) => field.messages ?? {})))
  return { fields, keys: Object.keys(fields) as (keyof Fields & string)[] }
}

/** A record as the procedures take it: each field's stored value. */
export type EntityValues<Fields extends EntityFields> = { [Key in keyof Fields]: z.output<Fields[Key]['rule']> }
/** What a form edits: every field as its text. */
export type EntityTexts<Fields extends EntityFields> = { [Key in keyof Fields]: string }

type RuleShape<Fields extends EntityFields> = { [Key in keyof Fields]: Fields[Key]['rule'] }

/** The record's schema (what create and update take, what a CSV row must pass). */
export function inputSchemaOf<Fields extends EntityFields>(entity: Entity<Fields>) {
  return z.object(mapFields(entity, (field) => field.rule) as RuleShape<Fields>)
}

/** A rule that reads loose input (text or a list), applied to a form input's text. */
const fromText = <Rule extends z.ZodType>(rule: Rule) =>
  z
    .string()
    .transform((text): unknown => text)
    .pipe(rule)

/** The same rules for a form, whose inputs all hold text. */
export function formSchemaOf<Fields extends EntityFields>(entity: Entity<Fields>) {
  return z.object(mapFields(entity, (field) => fromText(field.rule))) as unknown as z.ZodType<
    EntityValues<Fields>,
    EntityTexts<Fields>
  >
}

/** A field's value when nothing is given. */
export function emptyValueOf(field: EntityField): unknown {
  if (field.kind === 'list') return []
  if (field.kind === 'longText') return ''
  return field.required ? '' : null
}

/** A record with every field empty, then `values` (a form's starting point, a test's record, a seed's defaults). */
export function emptyRecordOf<Fields extends EntityFields>(
  entity: Entity<Fields>,
  values: Partial<EntityValues<Fields>> = {},
): EntityValues<Fields> {
  return { ...(mapFields(entity, emptyValueOf) as EntityValues<Fields>), ...values }
}

/** A value's words as search reads them: each entry of a list, the text of anything else. */
export function searchedTextsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [textOf(value)]
}

/** A value's text form: what its form input holds and its CSV cell says. */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.join(', ')
  return String(value)
}

/** The texts a form starts with: the record's, or empty ones. */
export function formTextsOf<Fields extends EntityFields>(
  entity: Entity<Fields>,
  record?: Partial<Record<keyof Fields, unknown>>,
): EntityTexts<Fields> {
  return mapFields(entity, (_field, key) => textOf(record?.[key])) as EntityTexts<Fields>
}

/** The fields a list, a file or a payload shows, in order. */
export function keysWhere<Fields extends EntityFields>(
  entity: Entity<Fields>,
  where: (field: EntityField) => boolean,
): (keyof Fields & string)[] {
  return entity.keys.filter((key) => where(entity.fields[key] as EntityField))
}

/** What a list reads of each record: every field but the long texts, which only the record's own page reads. */
export type ListedKeys<Fields extends EntityFields> = {
  [Key in keyof Fields]: Fields[Key]['kind'] extends 'longText' ? never : Key
}[keyof Fields] &
  string
/** The fields the list may be ordered by. */
export type SortableKeys<Fields extends EntityFields> = {
  [Key in keyof Fields]: Fields[Key]['column'] extends { sortable: true } ? Key : never
}[keyof Fields] &
  string
export function sortableKeysOf<Fields extends EntityFields>(entity: Entity<Fields>): SortableKeys<Fields>[] {
  return keysWhere(entity, isSortable) as SortableKeys<Fields>[]
}
export const isListed = (field: EntityField) => field.kind !== 'longText'
/** A field's column header. */
export const columnLabelOf = (field: EntityField) => field.columnLabel ?? field.label
export const isColumn = (field: EntityField) => field.column !== false
export const isHideable = (field: EntityField) => field.column !== false && field.column?.hideable !== false
export const isSortable = (field: EntityField) => field.column !== false && field.column?.sortable === true
export const isInWebhooks = (field: EntityField) => field.webhook !== false
export const isInDetails = (field: EntityField) => field.details !== false

/** What webhook receivers get of a record: its fields that go out, as stored. */
export function eventFieldsOf<Fields extends EntityFields>(
  entity: Entity<Fields>,
  record: Record<keyof Fields, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(keysWhere(entity, isInWebhooks).map((key) => [key, record[key]]))
}

// ── Rules fields share ──

/** Splits "A, B、C" or a list into trimmed, non-empty, de-duplicated entries (the first spelling wins). */
export function splitList(value: unknown): unknown {
  const entries = typeof value === 'string' ? value.split(/[,，、\n]/) : value
  if (!Array.isArray(entries)) return entries
  const seen = new Set<string>()
  const result: unknown[] = []
  for (const entry of entries) {
    if (typeof entry !== 'string') {
      result.push(entry)
      continue
    }
    const trimmed = entry.trim()
    if (!trimmed || seen.has(trimmed.toLowerCase())) continue
    seen.add(trimmed.toLowerCase())
    result.push(trimmed)
  }
  return result
}

export const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value)

/** Text that may be left empty (stored as null), trimmed, at most `max` characters (`tooLong`: the message key saying so). */
export const optionalText = (max: number, tooLong: string) =>
  z.preprocess(emptyToNull, storableString().trim().max(max, tooLong).nullable())

// ── CSV ──────────────────────────────────────────────────────────────────────────────────────────────────────

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/** The CSV columns, in order, with the field each one holds. */
export function csvColumnsOf<Fields extends EntityFields>(entity: Entity<Fields>) {
  return entity.keys.flatMap((key) => {
    const csv = entity.fields[key]?.csv
    if (csv === false) return []
    return [{ key, column: csv?.column ?? snakeCase(key) }]
  })
}

/** Reads a header as written by hand ("Published year", "year") as its column's name. */
export function csvHeaderReader<Fields extends EntityFields>(entity: Entity<Fields>) {
  const columns = csvColumnsOf(entity)
  const aliases = new Map<string, string>()
  for (const { key, column } of columns) {
    aliases.set(column.replaceAll('_', ''), column)
    const csv = entity.fields[key]?.csv
    for (const alias of csv ? (csv.aliases ?? []) : []) aliases.set(alias.replaceAll('_', ''), column)
  }
  return (header: string) => {
    const plain = header
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
    return aliases.get(plain.replaceAll('_', '')) ?? plain
  }
}

/** A CSV row (by column) as the record's loose input; a missing column reads as empty. */
export function recordFromCsvRow<Fields extends EntityFields>(entity: Entity<Fields>, row: Record<string, string>) {
  return Object.fromEntries(csvColumnsOf(entity).map(({ key, column }) => [key, row[column] ?? '']))
}

/** A record's CSV cells, in the columns' order. */
export function csvCellsOf<Fields extends EntityFields>(entity: Entity<Fields>, record: Record<keyof Fields, unknown>) {
  return csvColumnsOf(entity).map(({ key }) => textOf(record[key]))
}

// ── Tools (MCP, the assistant) ────────────────────────────────────────────────────────────────────────────────

type ToolValue<Field extends EntityField> = Field['kind'] extends 'list'
  ? string[]
  : Field['required'] extends true
    ? Field['kind'] extends 'integer'
      ? number
      : string
    : (Field['kind'] extends 'integer' ? number : string) | undefined
/** The tool's input: the fields not left out of tools, each loosely typed by its kind. */
export type ToolShape<Fields extends EntityFields> = {
  [Key in keyof Fields as Fields[Key]['tool'] extends false ? never : Key]: z.ZodType<ToolValue<Fields[Key]>>
}

/**
 * A record as a model's tool call gives it. Loose on purpose, apart from sanity caps: the procedure checks each field
 * and says what is wrong in the caller's language.
 */
export function toolInputShapeOf<Fields extends EntityFields>(entity: Entity<Fields>): ToolShape<Fields> {
  const shape: Record<string, z.ZodType> = {}
  for (const key of entity.keys) {
    const field = entity.fields[key] as EntityField
    if (field.tool === false) continue
    const loose =
      field.kind === 'list'
        ? z.array(z.string().max(2000)).max(100).default([])
        : field.kind === 'integer'
          ? z.number().int()
          : z.string().max(field.kind === 'longText' ? 20_000 : 2000)
    const given = field.kind === 'list' ? loose : field.required ? loose : loose.optional()
    const description = field.tool?.description
    shape[key] = description ? given.describe(description) : given
  }
  return shape as unknown as ToolShape<Fields>
}

/** What create takes, from a tool call's record: what the tool left out is empty. */
export function recordFromTool<Fields extends EntityFields>(
  entity: Entity<Fields>,
  given: Record<string, unknown>,
): EntityValues<Fields> {
  return mapFields(entity, (field, key) =>
    field.tool === false || given[key] === undefined ? emptyValueOf(field) : given[key],
  ) as EntityValues<Fields>
}

function mapFields<Fields extends EntityFields, Value>(
  entity: Entity<Fields>,
  map: (field: EntityField, key: keyof Fields & string) => Value,
): Record<keyof Fields, Value> {
  return Object.fromEntries(entity.keys.map((key) => [key, map(entity.fields[key] as EntityField, key)])) as Record<
    keyof Fields,
    Value
  >
}
