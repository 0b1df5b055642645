// What `npm run hatch -- new <app> <Entity> --fields "…" --label "…" --field-label "…"` asks for, read and checked
// before anything is written: every name the generated app will use, and a label in English and Chinese for the
// entity and for each field, so that no word of the new app is left for a translator to find.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { installedAppNames } from '../generate-apps.ts'
import { root } from '../project.ts'

export const fieldKinds = ['text', 'longtext', 'list', 'integer', 'year', 'url'] as const
export type NewFieldKind = (typeof fieldKinds)[number]

export interface Words {
  en: string
  zh: string
}

/** The entity's English label in the forms its messages need ("Publisher", "publishers"). */
export interface EnglishForms {
  one: string
  many: string
  /** In a sentence: lower-cased unless it starts with an acronym ("ISBN agency" stays). */
  oneInSentence: string
  manyInSentence: string
}

export interface NewField {
  /** camelCase: the definition's key, the row's property, the form's field. */
  key: string
  /** snake_case: the table's column, the CSV column, message keys. */
  column: string
  kind: NewFieldKind
  required: boolean
  label: Words
}

export interface NewAppSpec {
  /** The folder and the list's entry (`book-clubs`). */
  app: string
  /** The tRPC router's name and the TypeScript identifiers' stem (`bookClubs`). */
  router: string
  /** The table's name and the message keys' prefix (`book_clubs`). */
  table: string
  /** PascalCase (`BookClub`). */
  Entity: string
  /** camelCase (`bookClub`): the permission resource, the variables. */
  entity: string
  /** kebab-case (`book-club`): file names and event kinds (`book-club.created`). */
  entityFile: string
  /** snake_case (`book_club`): message keys about one record. */
  entitySnake: string
  /** UPPER_SNAKE (`BOOK_CLUB`): refusal codes. */
  entityCode: string
  label: Words
  english: EnglishForms
  fields: NewField[]
}

export class SpecError extends Error {}

const camel = (kebab: string) => kebab.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())
const snakeOfCamel = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/** Route segments and names the console and the site already use, or that an app of this name would shadow. */
const reservedNames = new Set([
  'api',
  'app',
  'apps',
  'console',
  'docs',
  'account',
  'auth',
  'login',
  'logout',
  'sign-in',
  'sign-up',
  'settings',
  'system',
  'dashboard',
  'organization',
  'organizations',
  'users',
  'members',
  'invitations',
  'roles',
  'teams',
  'activity',
  'configuration',
  'new',
  'static',
  'assets',
  'core',
  'lib',
  'server',
])

/** Fields every record has already, which a field of the same name would collide with. */
const reservedFields = new Set([
  'id',
  'organizationId',
  'createdById',
  'createdByName',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'searchText',
  'cursorKey',
])

/** "Publisher/出版社": both halves, each non-empty, the Chinese one with at least one Chinese character. */
export function parseWords(text: string, what: string): Words {
  const [en = '', zh = '', ...rest] = text.split('/').map((part) => part.trim())
  if (!en || !zh || rest.length > 0) {
    throw new SpecError(`${what} must be "English/中文" (one slash, both sides filled in): got "${text}".`)
  }
  if (!/[\u3400-\u9fff]/.test(zh)) throw new SpecError(`${what}: "${zh}" after the slash should be the Chinese label.`)
  if (/[{}<>"'`\\]/.test(`${en}${zh}`))
    throw new SpecError(`${what}: labels may not contain { } < > quotes or backslashes.`)
  return { en, zh }
}

/** Resources granted to roles already: the core's and the installed apps'. */
function takenResources(): Set<string> {
  const taken = new Set(['organization', 'member', 'invitation', 'team', 'ac', 'activity', 'user', 'session'])
  for (const app of installedAppNames()) {
    const file = path.join(root, 'src/features', app, 'permissions.ts')
    if (!existsSync(file)) continue
    const statements = /const statements = \{([\s\S]*?)\n\}/.exec(readFileSync(file, 'utf8'))?.[1] ?? ''
    for (const match of statements.matchAll(/^\s*(\w+)\s*:/gm)) taken.add(match[1] ?? '')
  }
  return taken
}

/** Every message key the project's catalogues hold, so the new app's keys can be checked against them. */
export function takenMessageKeys(): Set<string> {
  const catalogues = [
    path.join(root, 'messages/en.json'),
    ...readdirSync(path.join(root, 'src/features')).map((folder) =>
      path.join(root, 'src/features', folder, 'messages/en.json'),
    ),
  ]
  return new Set(
    catalogues
      .filter((file) => existsSync(file))
      .flatMap((file) => Object.keys(JSON.parse(readFileSync(file, 'utf8')))),
  )
}

/** A console route of this name, in the core or in an installed app. */
function consoleRouteTaken(app: string): boolean {
  const folders = [
    path.join(root, 'src/routes/console'),
    ...installedAppNames().map((installed) => path.join(root, 'src/features', installed, 'routes/console')),
  ]
  return folders.some(
    (folder) =>
      existsSync(folder) && readdirSync(folder).some((entry) => entry === app || entry.replace(/\.tsx?$/, '') === app),
  )
}

/** Names the app router and the database use already: the core's routers and tables, and the installed apps'. */
function takenRouterAndTableNames(): { routers: Set<string>; tables: Set<string> } {
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '')
  const routerSources = [
    read(path.join(root, 'src/server/trpc/root.ts')),
    ...installedAppNames().map((app) => read(path.join(root, 'src/features', app, 'server/routers.ts'))),
  ]
  const routers = new Set(
    routerSources.flatMap((text) => [...text.matchAll(/(\w+): \w+Router\b/g)].map((match) => match[1] ?? '')),
  )
  const schemaFiles = [
    ...readdirSync(path.join(root, 'src/server/db')).map((file) => path.join(root, 'src/server/db', file)),
    ...installedAppNames().map((app) => path.join(root, 'src/features', app, 'server/schema.ts')),
  ].filter((file) => file.endsWith('.ts'))
  const tables = new Set(
    schemaFiles.flatMap((file) =>
      [...read(file).matchAll(/pgTable\(\s*['"]([a-z0-9_]+)['"]/g)].map((match) => match[1] ?? ''),
    ),
  )
  return { routers, tables }
}

function parseField(spec: string, labels: Map<string, Words>): NewField {
  const [key = '', kind = '', flag, ...rest] = spec.split(':').map((part) => part.trim())
  if (!/^[a-z][a-zA-Z0-9]*$/.test(key)) {
    throw new SpecError(
      `Field "${spec}": its name must be camelCase letters and digits, starting with a lower-case letter.`,
    )
  }
  if (reservedFields.has(key)) throw new SpecError(`Field "${key}": every record has it already; choose another name.`)
  if (!(fieldKinds as readonly string[]).includes(kind)) {
    throw new SpecError(`Field "${key}": kind "${kind}" is not one of ${fieldKinds.join(', ')}.`)
  }
  if ((flag !== undefined && flag !== 'required') || rest.length > 0) {
    throw new SpecError(`Field "${spec}": write name:kind or name:kind:required.`)
  }
  const label = labels.get(key)
  if (!label) {
    throw new SpecError(`Field "${key}" has no label: add --field-label "${key}=English/中文" (both languages).`)
  }
  return { key, column: snakeOfCamel(key), kind: kind as NewFieldKind, required: flag === 'required', label }
}

export interface NewAppArguments {
  app?: string
  entity?: string
  fields?: string
  label?: string
  fieldLabels: string[]
}

/** Reads `new <app> <Entity> --fields … --label … --field-label …` (flags as `--flag value` or `--flag=value`). */
export function readNewAppArguments(args: readonly string[]): NewAppArguments {
  const positional: string[] = []
  const result: NewAppArguments = { fieldLabels: [] }
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] ?? ''
    const flag = /^--(fields|label|field-label)(?:=(.*))?$/.exec(argument)
    if (!flag) {
      if (argument.startsWith('--')) throw new SpecError(`Unknown option ${argument}.`)
      positional.push(argument)
      continue
    }
    const value = flag[2] ?? args[++index]
    if (value === undefined) throw new SpecError(`${argument} needs a value.`)
    if (flag[1] === 'fields') result.fields = value
    else if (flag[1] === 'label') result.label = value
    else result.fieldLabels.push(value)
  }
  if (positional.length > 2) throw new SpecError(`Unexpected arguments: ${positional.slice(2).join(' ')}.`)
  ;[result.app, result.entity] = positional
  return result
}

export function newAppSpec(args: NewAppArguments): NewAppSpec {
  const { app = '', entity: Entity = '' } = args
  if (!app || !Entity || !args.fields || !args.label) throw new SpecError(newAppUsage)
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(app) || app.length > 40) {
    throw new SpecError(`App "${app}": use lower-case letters, digits and single hyphens, starting with a letter.`)
  }
  if (reservedNames.has(app)) throw new SpecError(`App "${app}": the name is reserved for the core's routes or code.`)
  if (existsSync(path.join(root, 'src/features', app))) {
    throw new SpecError(`App "${app}": src/features/${app} exists already (an installed app or a core feature).`)
  }
  if (installedAppNames().includes(app)) throw new SpecError(`App "${app}" is in src/apps.ts already.`)
  if (consoleRouteTaken(app)) throw new SpecError(`App "${app}": /console/${app} is a route already.`)
  if (!/^[A-Z][A-Za-z0-9]*$/.test(Entity) || Entity.length > 40) {
    throw new SpecError(`Entity "${Entity}": use PascalCase letters and digits (Publisher, BookClub).`)
  }
  const entity = Entity.charAt(0).toLowerCase() + Entity.slice(1)
  if (takenResources().has(entity)) {
    throw new SpecError(`Entity "${Entity}": the permission resource "${entity}" exists already; choose another name.`)
  }
  const labels = new Map<string, Words>()
  for (const given of args.fieldLabels) {
    const at = given.indexOf('=')
    const key = given.slice(0, at).trim()
    if (at < 1) throw new SpecError(`--field-label "${given}": write name=English/中文.`)
    labels.set(key, parseWords(given.slice(at + 1), `--field-label ${key}`))
  }
  const fields = args.fields
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => parseField(part, labels))
  if (fields.length === 0) throw new SpecError('--fields names no field.')
  const duplicate = fields.find((field, index) => fields.findIndex((other) => other.key === field.key) !== index)
  if (duplicate) throw new SpecError(`Field "${duplicate.key}" is named twice.`)
  const unused = [...labels.keys()].filter((key) => !fields.some((field) => field.key === key))
  if (unused.length > 0) throw new SpecError(`--field-label names no field of --fields: ${unused.join(', ')}.`)
  const [first] = fields
  if (first?.kind !== 'text' || !first.required) {
    throw new SpecError(
      `The first field names a record in the list, its page and its messages: make it a required text field (e.g. "name:text:required"), not "${first?.key}:${first?.kind}${first?.required ? ':required' : ''}".`,
    )
  }
  const entitySnake = snakeOfCamel(entity)
  const label = parseWords(args.label, '--label')
  const spec: NewAppSpec = {
    app,
    router: camel(app),
    table: app.replaceAll('-', '_'),
    Entity,
    entity,
    entityFile: entitySnake.replaceAll('_', '-'),
    entitySnake,
    entityCode: entitySnake.toUpperCase(),
    label,
    english: englishForms(label.en),
    fields,
  }
  const taken = takenRouterAndTableNames()
  if (taken.routers.has(spec.router))
    throw new SpecError(`App "${app}": the API has a router named "${spec.router}" already.`)
  if (taken.tables.has(spec.table))
    throw new SpecError(`App "${app}": the database has a table "${spec.table}" already.`)
  if (spec.router === spec.entity) {
    throw new SpecError(
      `App "${app}" and entity "${Entity}" would share the name "${spec.entity}": name the app in the plural.`,
    )
  }
  return spec
}

/** English plural of the last word ("Publisher" → "Publishers", "Agency" → "Agencies"). */
export function englishForms(one: string): EnglishForms {
  const many = one.replace(/([^aeiou])y$/i, '$1ies').replace(/(s|x|z|ch|sh)$/i, '$1es')
  const plural = many === one ? `${one}s` : many
  const inSentence = (text: string) => (/^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text)
  return { one, many: plural, oneInSentence: inSentence(one), manyInSentence: inSentence(plural) }
}

export const newAppUsage = [
  'Usage: npm run hatch -- new <app> <Entity> --fields "<name>:<kind>[:required], …" --label "English/中文" \\',
  '         --field-label "<name>=English/中文" (one per field)',
  `  kinds: ${fieldKinds.join(', ')} (year: a whole number from 1000 to next year)`,
  '  the first field names a record: a required text field',
  '  e.g. npm run hatch -- new publishers Publisher --fields "name:text:required, country:text, founded:year" \\',
  '         --label "Publisher/出版社" --field-label "name=Name/名称" --field-label "country=Country/国家" \\',
  '         --field-label "founded=Founded/创立年份"',
].join('\n')
