// The migration rule (docs: Upgrading): a migration only expands the schema, because while a rolling restart runs,
// the servers still on the previous release read and write the new schema. Creating tables, columns and indexes,
// adding a column that is nullable or has a default, adding or dropping constraints and indexes: all expand. Dropping
// or renaming a table or a column, changing a column's type, making a column NOT NULL, taking the default off a
// NOT NULL column, adding a NOT NULL column without a default: those contract, and ship only in a release after the
// one that stopped using what they change, saying so at the top of the migration file:
//
//   -- contract: drop column books.subtitle — unused since v2026.11.29
//
// one line per contract step, `<what>` as the check names it (it prints the line to write), the release a version
// (v1.4.0, 1.4.0, v2026.11.29) or a date (2026-11-29) that has already shipped. tests/integration/migration-rule.test.ts
// checks every migration in drizzle/ with this, and `npm run hatch -- remove` writes the lines for the tables it drops.
// Pure: no file or database is read here.

/** A statement that contracts the schema, and what its marker line names. */
export interface ContractStep {
  /** e.g. `drop column books.subtitle`: the marker's `<what>`. */
  what: string
  /** The statement, shortened, for messages. */
  statement: string
}

export interface Marker {
  what: string
  release: string
  line: number
}

export interface MigrationVerdict {
  steps: ContractStep[]
  markers: Marker[]
  /** Empty when the migration keeps the rule. */
  problems: string[]
}

/** The marker's shape, for messages and docs. */
export const markerShape = '-- contract: <what> — unused since <release>'

/** The marker line for one contract step. */
export function markerLine(what: string, release: string): string {
  return `-- contract: ${what} — unused since ${release}`
}

/**
 * The migration's text with a marker line for each of its contract steps put first (what `npm run hatch -- remove`
 * writes into the migration drizzle-kit generated).
 */
export function withMarkers(sql: string, release: string): string {
  const steps = contractSteps(sql)
  if (steps.length === 0) return sql
  const lines = [...new Set(steps.map((step) => markerLine(step.what, release)))]
  return `${lines.join('\n')}\n${sql}`
}

// ── Reading SQL ─────────────────────────────────────────────────────────────────────────────────────────────────────

interface Token {
  /** Lower-cased for a bare word (as PostgreSQL folds it), verbatim for a quoted identifier or a literal. */
  text: string
  kind: 'word' | 'quoted' | 'string' | 'symbol'
}

/**
 * The statements of a migration, comments removed, split at the semicolons PostgreSQL would split at (not those
 * inside strings, quoted names or dollar-quoted bodies); drizzle-kit's `--> statement-breakpoint` is a comment.
 */
export function sqlStatements(sql: string): string[] {
  const statements: string[] = []
  let current = ''
  let index = 0
  while (index < sql.length) {
    const rest = sql.slice(index)
    const char = sql[index] ?? ''
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', index)
      index = end === -1 ? sql.length : end
      current += ' '
    } else if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', index + 2)
      index = end === -1 ? sql.length : end + 2
      current += ' '
    } else if (char === "'" || char === '"') {
      let end = index + 1
      while (end < sql.length) {
        if (sql[end] === char && sql[end + 1] === char) end += 2
        else if (sql[end] === char) break
        else end += 1
      }
      current += sql.slice(index, end + 1)
      index = end + 1
    } else if (char === '$' && /^\$[A-Za-z_]?\w*\$/.test(rest)) {
      const tag = /^\$[A-Za-z_]?\w*\$/.exec(rest)?.[0] ?? '$$'
      const end = sql.indexOf(tag, index + tag.length)
      const stop = end === -1 ? sql.length : end + tag.length
      current += sql.slice(index, stop)
      index = stop
    } else if (char === ';') {
      statements.push(current)
      current = ''
      index += 1
    } else {
      current += char
      index += 1
    }
  }
  statements.push(current)
  return statements.map((statement) => statement.replace(/\s+/g, ' ').trim()).filter(Boolean)
}

function tokenize(statement: string): Token[] {
  const tokens: Token[] = []
  const pattern =
    /\s*(?:("(?:[^"]|"")*")|('(?:[^']|'')*')|(\$[A-Za-z_]?\w*\$[\s\S]*?\$[A-Za-z_]?\w*\$)|([A-Za-z_][\w$]*)|(\S))/gy
  for (const match of statement.matchAll(pattern)) {
    const [, quoted, string, dollar, word, symbol] = match
    if (quoted) tokens.push({ text: quoted.slice(1, -1).replaceAll('""', '"'), kind: 'quoted' })
    else if (string || dollar) tokens.push({ text: string ?? dollar ?? '', kind: 'string' })
    else if (word) tokens.push({ text: word.toLowerCase(), kind: 'word' })
    else if (symbol) tokens.push({ text: symbol, kind: 'symbol' })
  }
  return tokens
}

/** Reads a statement's tokens in order. */
class Reader {
  position = 0
  readonly tokens: Token[]
  constructor(tokens: Token[]) {
    this.tokens = tokens
  }
  peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset]
  }
  /** Takes the next tokens when they are these keywords (bare words), in order. */
  accept(...words: string[]): boolean {
    const matches = words.every((word, offset) => {
      const token = this.peek(offset)
      return token?.kind === 'word' && token.text === word
    })
    if (matches) this.position += words.length
    return matches
  }
  /** A possibly schema-qualified name; `public.` is left out. */
  name(): string | undefined {
    const parts: string[] = []
    for (;;) {
      const token = this.peek()
      if (token?.kind !== 'word' && token?.kind !== 'quoted') break
      parts.push(token.text)
      this.position += 1
      if (this.peek()?.text !== '.') break
      this.position += 1
    }
    if (parts.length === 0) return undefined
    return (parts.length > 1 && parts[0] === 'public' ? parts.slice(1) : parts).join('.')
  }
  /** The remaining tokens split at top-level commas (ALTER TABLE's actions, DROP TABLE's names). */
  restByComma(): Token[][] {
    const groups: Token[][] = [[]]
    let depth = 0
    for (const token of this.tokens.slice(this.position)) {
      if (token.text === '(' && token.kind === 'symbol') depth += 1
      if (token.text === ')' && token.kind === 'symbol') depth -= 1
      if (token.text === ',' && token.kind === 'symbol' && depth === 0) groups.push([])
      else groups.at(-1)?.push(token)
    }
    return groups.filter((group) => group.length > 0)
  }
}

// ── Which statements contract ───────────────────────────────────────────────────────────────────────────────────────

export interface SchemaKnowledge {
  /**
   * Whether a column of the schema before this migration is NOT NULL (from the previous migration's snapshot);
   * undefined when unknown, and then taking its default off counts as a contract step.
   */
  notNull?: (table: string, column: string) => boolean | undefined
}

const droppedKinds = [
  ['table'],
  ['view'],
  ['materialized', 'view'],
  ['type'],
  ['domain'],
  ['sequence'],
  ['function'],
  ['procedure'],
  ['schema'],
  ['extension'],
]
const serialTypes = new Set(['serial', 'serial4', 'bigserial', 'serial8', 'smallserial', 'serial2'])

/** The statement for messages: its first 120 characters. */
const shorten = (statement: string) => (statement.length > 120 ? `${statement.slice(0, 117)}…` : statement)

/** The contract steps of a migration, in order. */
export function contractSteps(sql: string, knowledge: SchemaKnowledge = {}): ContractStep[] {
  const statements = sqlStatements(sql)
  // What this migration creates is new to the previous release, which cannot be using it.
  const createdTables = new Set<string>()
  const addedColumns = new Map<string, { notNull: boolean }>()
  const steps: ContractStep[] = []
  for (const statement of statements) {
    const reader = new Reader(tokenize(statement))
    const step = (what: string) => steps.push({ what, statement: shorten(statement) })
    if (reader.accept('create')) {
      reader.accept('unlogged')
      if (reader.accept('table')) {
        reader.accept('if', 'not', 'exists')
        const table = reader.name()
        if (table) createdTables.add(table)
      }
      continue
    }
    if (reader.accept('drop')) {
      const kind = droppedKinds.find((words) => reader.accept(...words))
      if (!kind) continue // an index, a constraint, a trigger, a policy: nothing the previous release reads or writes
      reader.accept('concurrently')
      reader.accept('if', 'exists')
      for (const group of reader.restByComma()) {
        const name = new Reader(group).name()
        if (name && !(kind[0] === 'table' && createdTables.has(name))) step(`drop ${kind.join(' ')} ${name}`)
      }
      continue
    }
    if (reader.accept('alter', 'type')) {
      const type = reader.name()
      if (reader.accept('rename', 'to')) step(`rename type ${type}`)
      else if (reader.accept('rename', 'value')) step(`rename value ${type}.${reader.peek()?.text.slice(1, -1)}`)
      else if (reader.accept('drop', 'attribute')) step(`drop attribute ${type}`)
      continue
    }
    for (const kind of [['view'], ['materialized', 'view'], ['sequence'], ['function'], ['schema']]) {
      if (!reader.accept('alter', ...kind)) continue
      const name = reader.name()
      if (reader.accept('rename')) step(`rename ${kind.join(' ')} ${name}`)
      else if (reader.accept('set', 'schema')) step(`set schema ${kind.join(' ')} ${name}`)
      break
    }
    if (!reader.accept('alter', 'table')) continue
    reader.accept('if', 'exists')
    reader.accept('only')
    const table = reader.name()
    if (!table || createdTables.has(table)) continue
    for (const action of reader.restByComma()) {
      const words = new Reader(action)
      const column = (name: string | undefined) => `${table}.${name}`
      if (words.accept('rename', 'to')) step(`rename table ${table}`)
      else if (words.accept('rename', 'constraint')) continue
      else if (words.accept('rename')) {
        words.accept('column')
        const name = words.name()
        if (!addedColumns.has(column(name))) step(`rename column ${column(name)}`)
      } else if (words.accept('set', 'schema')) step(`set schema table ${table}`)
      else if (words.accept('drop')) {
        if (words.accept('constraint')) continue
        words.accept('column')
        words.accept('if', 'exists')
        const name = words.name()
        if (!addedColumns.has(column(name))) step(`drop column ${column(name)}`)
      } else if (words.accept('add')) {
        if (['constraint', 'primary', 'unique', 'check', 'foreign', 'exclude'].includes(words.peek()?.text ?? '')) {
          continue
        }
        words.accept('column')
        words.accept('if', 'not', 'exists')
        const name = words.name()
        const definition = action.slice(words.position)
        const type = definition[0]?.text ?? ''
        let depth = 0
        const topLevel = definition.filter((token) => {
          if (token.text === '(' && token.kind === 'symbol') depth += 1
          if (token.text === ')' && token.kind === 'symbol') depth -= 1
          return depth === 0 && token.kind === 'word'
        })
        const has = (...sequence: string[]) =>
          topLevel.some((_, start) => sequence.every((word, offset) => topLevel[start + offset]?.text === word))
        const notNull = has('not', 'null') || has('primary', 'key')
        const filled = has('default') || has('generated') || serialTypes.has(type)
        addedColumns.set(column(name), { notNull })
        if (notNull && !filled) step(`add not null column ${column(name)}`)
      } else if (words.accept('alter')) {
        words.accept('column')
        const name = words.name()
        const added = addedColumns.get(column(name))
        if (words.accept('type') || words.accept('set', 'data', 'type')) {
          if (!added) step(`set type ${column(name)}`)
        } else if (words.accept('set', 'not', 'null')) step(`set not null ${column(name)}`)
        else if (words.accept('drop', 'default')) {
          const notNull = added ? added.notNull : knowledge.notNull?.(table, name ?? '')
          if (notNull !== false) step(`drop default ${column(name)}`)
        } else if (words.accept('drop', 'identity')) step(`drop identity ${column(name)}`)
      }
    }
  }
  return steps
}

// ── The markers ─────────────────────────────────────────────────────────────────────────────────────────────────────

const normalize = (what: string) => what.replaceAll('"', '').replace(/\s+/g, ' ').trim().toLowerCase()

const releasePattern = /^(?:v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?|\d{4}-\d{2}-\d{2})$/

/** Why a marker's release is not one, or nothing. */
function releaseProblem(release: string, today: string): string | undefined {
  if (!releasePattern.test(release)) {
    return `"${release}" is not a release: name it by its version (v1.4.0, 1.4.0, v2026.11.29) or its date (2026-11-29)`
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(release)) {
    const date = new Date(`${release}T00:00:00Z`)
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== release) {
      return `${release} is not a date`
    }
    if (release > today) return `${release} is after today: a release that has not shipped cannot have stopped using it`
  }
  return undefined
}

/**
 * Checks one migration: each contract step is named by a marker line at the top of the file, and each marker line is
 * well-formed and names a step of this migration.
 */
export function checkMigration(sql: string, options: SchemaKnowledge & { today?: string } = {}): MigrationVerdict {
  const today = options.today ?? new Date().toISOString().slice(0, 10)
  const steps = contractSteps(sql, options)
  const markers: Marker[] = []
  const problems: string[] = []
  const lines = sql.split('\n')
  let leading = true
  lines.forEach((text, index) => {
    const line = text.trim()
    if (leading && line !== '' && !line.startsWith('--')) leading = false
    if (!/^--\s*contract\b/i.test(line)) return
    const where = `line ${index + 1}`
    if (!leading) {
      problems.push(`${where}: a contract marker belongs in the comment lines at the top of the file, before any SQL`)
      return
    }
    const parsed = /^--\s*contract:\s*(.+?)\s+(?:—|--)\s+unused since\s+(\S+?)[.,;]?(?:\s.*)?$/.exec(line)
    if (!parsed) {
      problems.push(`${where}: "${line}" is not a contract marker: write it as ${markerShape}`)
      return
    }
    const what = parsed[1] ?? ''
    const release = parsed[2] ?? ''
    const wrongRelease = releaseProblem(release, today)
    if (wrongRelease) problems.push(`${where}: ${wrongRelease}`)
    markers.push({ what: normalize(what), release, line: index + 1 })
  })
  const named = new Set(markers.map((marker) => marker.what))
  for (const step of steps) {
    if (named.has(normalize(step.what))) continue
    problems.push(
      `${step.statement}\n  contracts the schema (${step.what}): the previous release, still running during a rolling ` +
        'restart, may read or write it. Ship it in a release after the one that stopped using it, with the line\n  ' +
        `${markerLine(step.what, '<release>')}\n  at the top of the file (docs: Upgrading, the migration rule).`,
    )
  }
  const stepNames = new Set(steps.map((step) => normalize(step.what)))
  for (const marker of markers) {
    if (!stepNames.has(marker.what)) {
      problems.push(
        `line ${marker.line}: the marker names "${marker.what}", which no statement of this migration does` +
          (steps.length > 0 ? ` (its contract steps: ${steps.map((step) => step.what).join('; ')})` : ''),
      )
    }
  }
  return { steps, markers, problems }
}

// ── The previous release against the new schema ─────────────────────────────────────────────────────────────────────

/** A column as the database has it, or as a drizzle-kit snapshot declares it. */
export interface ColumnShape {
  /** PostgreSQL's name for the type, as `format_type` writes it (`integer`, `timestamp with time zone`, `text[]`). */
  type: string
  notNull: boolean
  /** A default, an identity or a generated value: an insert may leave it out. */
  filled: boolean
}

/** Tables by name (`public.` left out), each its columns by name. */
export type SchemaShape = Map<string, Map<string, ColumnShape>>

/** The part of a drizzle-kit snapshot (drizzle/meta/NNNN_snapshot.json) read here. */
export interface Snapshot {
  tables: Record<
    string,
    {
      name: string
      schema: string
      columns: Record<
        string,
        { name: string; type: string; notNull?: boolean; default?: unknown; identity?: unknown; generated?: unknown }
      >
    }
  >
}

const typeNames: Record<string, string> = {
  serial: 'integer',
  serial4: 'integer',
  int: 'integer',
  int4: 'integer',
  bigserial: 'bigint',
  serial8: 'bigint',
  int8: 'bigint',
  smallserial: 'smallint',
  serial2: 'smallint',
  int2: 'smallint',
  bool: 'boolean',
  float8: 'double precision',
  float4: 'real',
  varchar: 'character varying',
  char: 'character',
  timestamp: 'timestamp without time zone',
  timestamptz: 'timestamp with time zone',
  time: 'time without time zone',
  timetz: 'time with time zone',
  decimal: 'numeric',
}

/** A type as `format_type` writes it: `varchar(20)` is `character varying(20)`, `timestamp` has its time zone. */
export function canonicalType(type: string): string {
  const compact = type
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\s*\(\s*/g, '(')
    .replace(/\s*,\s*/g, ',')
  const parsed = /^([a-z_][a-z0-9_ ]*?)(\(\d+(?:,\d+)?\))?((?:\[\])*)$/.exec(compact.replace(/\s*\)\s*/g, ')'))
  if (!parsed) return compact
  const [, base = '', size = '', array = ''] = parsed
  const named = typeNames[base] ?? base
  const withTime = /^(timestamp|time) (with(out)? time zone)$/.exec(named)
  if (withTime && size) return `${withTime[1]}${size} ${withTime[2]}${array}`
  if ((base === 'timestamp' || base === 'time') && size) return `${base}${size} without time zone${array}`
  return `${named}${size}${array}`
}

/** A snapshot's tables and columns. */
export function snapshotShape(snapshot: Snapshot): SchemaShape {
  const shape: SchemaShape = new Map()
  for (const table of Object.values(snapshot.tables)) {
    const name = table.schema && table.schema !== 'public' ? `${table.schema}.${table.name}` : table.name
    const columns = new Map<string, ColumnShape>()
    for (const column of Object.values(table.columns)) {
      columns.set(column.name, {
        type: canonicalType(column.type),
        notNull: column.notNull === true,
        filled:
          column.default !== undefined ||
          column.identity !== undefined ||
          column.generated !== undefined ||
          serialTypes.has(column.type.toLowerCase()),
      })
    }
    shape.set(name, columns)
  }
  return shape
}

/**
 * What the previous release (its schema: `older`, the snapshot of the migration before) would meet in the database
 * after the new migrations (`current`): each table and column it knew is still there with the same type, a column it
 * left out of an insert takes a value, and nothing it could write is refused for being null. `contracted` are the
 * `<what>`s of the contract markers of the migrations since, each an exception. Empty when it would work.
 */
export function previousReleaseProblems(older: SchemaShape, current: SchemaShape, contracted: string[] = []): string[] {
  const allowed = new Set(contracted.map(normalize))
  const excused = (what: string) => allowed.has(normalize(what))
  const problems: string[] = []
  for (const [table, columns] of older) {
    const now = current.get(table)
    if (!now) {
      if (!excused(`drop table ${table}`) && !excused(`rename table ${table}`)) {
        problems.push(`table ${table} is gone: the previous release reads and writes it`)
      }
      continue
    }
    for (const [name, before] of columns) {
      const column = `${table}.${name}`
      const after = now.get(name)
      if (!after) {
        if (!excused(`drop column ${column}`) && !excused(`rename column ${column}`)) {
          problems.push(`column ${column} is gone: the previous release reads and writes it`)
        }
        continue
      }
      if (after.type !== before.type && !excused(`set type ${column}`)) {
        problems.push(
          `column ${column} is ${after.type}, was ${before.type}: the previous release reads ${before.type}`,
        )
      }
      if (after.notNull && !before.notNull && !excused(`set not null ${column}`)) {
        problems.push(`column ${column} became NOT NULL: the previous release may write null or leave it out`)
      }
      if (after.notNull && before.filled && !after.filled) {
        if (!excused(`drop default ${column}`) && !excused(`drop identity ${column}`)) {
          problems.push(`column ${column} lost its default: the previous release's inserts leave it out`)
        }
      }
    }
    for (const [name, after] of now) {
      const column = `${table}.${name}`
      if (columns.has(name) || !after.notNull || after.filled || excused(`add not null column ${column}`)) continue
      problems.push(
        `column ${column} is new, NOT NULL and without a default: the previous release's inserts leave it out`,
      )
    }
  }
  return problems
}
