// `npm run hatch -- new` writes an app that already follows every rule the project keeps: in a copy of the project, an
// app with a field of every kind is generated, and the copy passes the type check (run by the command), the lint on
// the app's folder, the import rules, the app's own integration tests, and the shared tests that read every installed
// app (the authorization matrix and its policy rows, the permission matrix, the messages in both languages); its
// migration passes the migration rule. Then `hatch remove` takes it out again and the type check still passes. Refused
// specifications write nothing.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkMigration } from '../../scripts/migration-rule'
import { copyOfProject, removeCopy } from '../../scripts/project-copy'

const project = path.resolve('.')
const copies: string[] = []

afterAll(() => {
  for (const copy of copies) removeCopy(copy)
})

function newCopy(): string {
  const copy = copyOfProject(project, { prefix: 'hatch-generator-' })
  copies.push(copy)
  return copy
}

function run(copy: string, args: string[]) {
  const result = spawnSync(process.execPath, args, { cwd: copy, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` }
}

const app = 'record-labels'
const fields = [
  'name:text:required',
  'country:text',
  'founded:year',
  'website:url',
  'genres:list',
  'artists:integer',
  'history:longtext',
].join(', ')
const fieldLabels = [
  'name=Name/名称',
  'country=Country/国家',
  'founded=Founded/创立年份',
  'website=Website/网站',
  'genres=Genres/风格',
  'artists=Artists/艺人数量',
  'history=History/历史',
].flatMap((label) => ['--field-label', label])
const generate = (copy: string, extra: string[] = fieldLabels) =>
  run(copy, [
    'scripts/hatch.ts',
    'new',
    app,
    'RecordLabel',
    '--fields',
    fields,
    '--label',
    'Record label/唱片公司',
    ...extra,
  ])

describe('npm run hatch -- new', () => {
  it('refuses a specification it cannot complete, and writes nothing', { timeout: 60_000 }, () => {
    const copy = newCopy()
    const list = readFileSync(path.join(copy, 'src/apps.ts'), 'utf8')
    const refusals: [string[], string][] = [
      [fieldLabels.slice(0, -2), 'Field "history" has no label: add --field-label "history=English/中文"'],
      [[...fieldLabels.slice(0, -2), '--field-label', 'history=History'], 'must be "English/中文"'],
    ]
    for (const [labels, reason] of refusals) {
      const refused = generate(copy, labels)
      expect(refused.status, refused.output).toBe(1)
      expect(refused.output).toContain(reason)
    }
    // A core feature's folder: taken in every kit, the minimal one included.
    const taken = run(copy, ['scripts/hatch.ts', 'new', 'diagnostics', 'Tome', '--fields', 'title:text:required'])
    expect(taken.status).toBe(1)
    const named = run(copy, [
      'scripts/hatch.ts',
      'new',
      'diagnostics',
      'Tome',
      '--fields',
      'title:text:required',
      '--label',
      'Tome/卷',
      '--field-label',
      'title=Title/标题',
    ])
    expect(named.status, named.output).toBe(1)
    expect(named.output).toContain('src/features/diagnostics exists already')
    expect(existsSync(path.join(copy, 'src/features', app)), 'no folder was written').toBe(false)
    expect(readFileSync(path.join(copy, 'src/apps.ts'), 'utf8')).toBe(list)
  })

  it('writes an app that passes the checks and the shared tests, and hatch remove takes it out again', {
    timeout: 420_000,
  }, () => {
    const copy = newCopy()
    const migrationsBefore = readdirSync(path.join(copy, 'drizzle'))
    const generated = generate(copy)
    expect(generated.status, generated.output).toBe(0)
    expect(readFileSync(path.join(copy, 'src/apps.ts'), 'utf8')).toContain(`'${app}'`)
    const migrations = readdirSync(path.join(copy, 'drizzle')).filter((file) => !migrationsBefore.includes(file))
    expect(migrations).toEqual([expect.stringMatching(/^\d{4}_add_record_labels\.sql$/)])
    const migration = readFileSync(path.join(copy, 'drizzle', migrations[0] ?? ''), 'utf8')
    expect(migration).toContain('CREATE TABLE "record_labels"')
    expect(migration).toMatch(
      /FOREIGN KEY \("organization_id"\) REFERENCES "public"\."organizations"\("id"\) ON DELETE cascade/,
    )
    // It only expands the schema (scripts/migration-rule.ts): checked here rather than by running the rule's test file
    // in the copy, which would first migrate a new template database for the copy's migrations.
    expect(checkMigration(migration).problems).toEqual([])

    const lint = run(copy, ['node_modules/@biomejs/biome/bin/biome', 'check', `src/features/${app}`])
    expect(lint.status, lint.output).toBe(0)
    const imports = run(copy, [
      'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs',
      'src',
      '--config',
      '.dependency-cruiser.cjs',
    ])
    expect(imports.status, imports.output).toBe(0)

    const tests = run(copy, [
      'node_modules/vitest/vitest.mjs',
      'run',
      `src/features/${app}/tests/${app}.test.ts`,
      'tests/integration/authorization-matrix.test.ts',
      'tests/integration/organization-permissions.test.ts',
      'tests/unit/messages.test.ts',
      'tests/unit/validation-messages.test.ts',
      'tests/unit/app-error-codes.test.ts',
      'tests/unit/installed-apps.test.ts',
      'tests/unit/component-size.test.ts',
      '--reporter=verbose',
    ])
    expect(tests.status, tests.output).toBe(0)
    expect(tests.output).not.toMatch(/\b(skipped|todo)\b/)
    // The matrix walked the new procedures (their rows are the app's policy.ts).
    expect(tests.output).toMatch(/record labels on pglite/)

    const removal = run(copy, ['scripts/hatch.ts', 'remove', app])
    expect(removal.status, removal.output).toBe(0)
    expect(existsSync(path.join(copy, 'src/features', app))).toBe(false)
    expect(readFileSync(path.join(copy, 'src/apps.ts'), 'utf8')).not.toContain(`'${app}'`)
    expect(readFileSync(path.join(copy, 'src/routeTree.gen.ts'), 'utf8')).not.toContain(`/features/${app}/`)
  })
})
