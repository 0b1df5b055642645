// Every installed app can be taken out: in a copy of the project, `npm run hatch -- remove <app>` deletes it, its line
// in the list, its words and the dependencies only it imports, writes the migration dropping its tables, and what is
// left passes the type check (run by the command). The lint and the import rules run once, on the minimal kit
// (scripts/minimal-kit.ts): a removal that would leave another file importing the app is refused before anything is
// deleted, so they have nothing else to find per app.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { installedApps } from '#/apps'
import { dependenciesOnlyOf, tablesOf, withDependents } from '../../scripts/hatch/app-facts'
import { checkMigration } from '../../scripts/migration-rule'
import { copyOfProject as copyOf, removeCopy } from '../../scripts/project-copy'

const project = path.resolve('.')
const copies: string[] = []

// As a fresh clone has it, without the compiled messages and content collections: the command writes what it needs.
function copyOfProject(): string {
  const copy = copyOf(project, { prefix: 'hatch-removal-', asCloned: true })
  copies.push(copy)
  return copy
}

function run(copy: string, script: string, args: string[]) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: copy, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` }
}

afterAll(() => {
  for (const copy of copies) removeCopy(copy)
})

describe.each<string>([...installedApps])('removing the %s app', { timeout: 240_000 }, (app) => {
  it('leaves a project that passes the type check', () => {
    const copy = copyOfProject()
    // An app others need (books: files) leaves with them.
    const leaving = withDependents([app])
    const tables = leaving.flatMap((name) => tablesOf(name))
    const onlyItsOwn = dependenciesOnlyOf(leaving)
    const catalogue = path.join(project, 'src/features', app, 'messages/en.json')
    const words = existsSync(catalogue)
      ? Object.keys(JSON.parse(readFileSync(catalogue, 'utf8')) as object).filter((key) => key !== '$schema')
      : []
    const migrationsBefore = readdirSync(path.join(copy, 'drizzle'))
    const envDocs = path.join(project, 'src/features', app, 'env.md')
    const variables = existsSync(envDocs)
      ? [...readFileSync(envDocs, 'utf8').matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((match) => match[1] ?? '')
      : []
    const removal = run(copy, 'scripts/hatch.ts', ['remove', app, ...(leaving.length > 1 ? ['--with-dependents'] : [])])
    expect(removal.status, removal.output).toBe(0)
    for (const name of leaving) {
      expect(existsSync(path.join(copy, 'src/features', name)), `${name}'s folder is gone`).toBe(false)
      expect(readFileSync(path.join(copy, 'src/apps.ts'), 'utf8')).not.toContain(`'${name}'`)
      expect(readFileSync(path.join(copy, 'src/routeTree.gen.ts'), 'utf8')).not.toContain(`/features/${name}/`)
    }
    const written = readdirSync(path.join(copy, 'drizzle')).filter((file) => !migrationsBefore.includes(file))
    if (tables.length === 0) expect(written, 'no migration without tables').toEqual([])
    else {
      expect(written, 'one migration').toEqual([
        expect.stringMatching(new RegExp(`^\\d{4}_remove_${app.replaceAll('-', '_')}[a-z_]*\\.sql$`)),
      ])
      const migration = readFileSync(path.join(copy, 'drizzle', written[0] ?? ''), 'utf8')
      for (const table of tables) expect(migration, `drops ${table}`).toContain(`DROP TABLE "${table}"`)
      // Dropping tables contracts the schema: the file says so at its top, as the migration rule asks.
      for (const table of tables) expect(migration).toMatch(new RegExp(`^-- contract: drop table ${table} — `, 'm'))
      expect(checkMigration(migration).problems).toEqual([])
    }
    const dependencies = JSON.parse(readFileSync(path.join(copy, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
      devDependencies: Record<string, string>
      scripts: Record<string, string>
    }
    // An npm script that runs an app's file (`npm run billing`) goes with it.
    for (const [script, command] of Object.entries(dependencies.scripts)) {
      for (const name of leaving) expect(command, `npm run ${script}`).not.toContain(`src/features/${name}/`)
    }
    const lock = JSON.parse(readFileSync(path.join(copy, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }>
    }
    const locked = lock.packages[''] ?? {}
    for (const name of onlyItsOwn) {
      expect({ ...dependencies.dependencies, ...dependencies.devDependencies }, `${name} is pruned`).not.toHaveProperty(
        name,
      )
      expect(
        { ...locked.dependencies, ...locked.devDependencies },
        `${name} is pruned from the lock`,
      ).not.toHaveProperty(name)
    }
    const readme = readFileSync(path.join(copy, 'README.md'), 'utf8')
    for (const variable of variables) expect(readme, `README.md no longer lists ${variable}`).not.toContain(variable)
    const compiled = readFileSync(path.join(copy, 'src/paraglide/messages/_index.js'), 'utf8')
    for (const key of words) expect(compiled, `${key} is no longer compiled`).not.toContain(`'./${key}.js'`)
  })
})

/** Two small apps added to a copy's list: alpha needs beta. */
function copyWithTwoApps(): string {
  const copy = copyOfProject()
  for (const [app, manifest] of [
    ['alpha', "{ name: 'alpha', needs: ['beta'] }"],
    ['beta', "{ name: 'beta' }"],
  ] as const) {
    mkdirSync(path.join(copy, 'src/features', app), { recursive: true })
    writeFileSync(
      path.join(copy, 'src/features', app, 'app.ts'),
      `import { defineApp } from '#/lib/app-manifest'\n\nexport const app = defineApp(${manifest})\n`,
    )
  }
  const list = path.join(copy, 'src/apps.ts')
  writeFileSync(
    list,
    readFileSync(list, 'utf8').replace(
      'export const installedApps = [',
      "export const installedApps = ['alpha', 'beta', ",
    ),
  )
  return copy
}

// These hold with no app installed too (the minimal kit), where the list above is empty: a file without a test fails.
describe('removing an app another one needs', { timeout: 120_000 }, () => {
  it('is refused with the name of the app that needs it, and takes both with --with-dependents', () => {
    const copy = copyWithTwoApps()
    const refused = run(copy, 'scripts/hatch.ts', ['remove', 'beta'])
    expect(refused.status, refused.output).toBe(1)
    expect(refused.output).toContain('beta is needed by alpha')
    expect(existsSync(path.join(copy, 'src', 'features', 'beta')), 'nothing was deleted').toBe(true)
    const both = run(copy, 'scripts/hatch.ts', ['remove', 'beta', '--with-dependents', '--dry-run'])
    expect(both.status, both.output).toBe(0)
    expect(both.output).toContain('With the apps that need them: beta, alpha')
    expect(both.output).toContain(['src', 'features', 'alpha', 'app.ts'].join('/'))
  })

  it('is refused while a file outside the apps imports it, naming the file', () => {
    const copy = copyWithTwoApps()
    // Put together, so that this file (copied with the project) does not import beta in the removal's eyes.
    const betaEntry = ['#', 'features', 'beta', 'app'].join('/')
    writeFileSync(
      path.join(copy, 'src/lib/uses-beta.ts'),
      `import { app } from '${betaEntry}'\n\nexport const betaName = app.name\n`,
    )
    const refused = run(copy, 'scripts/hatch.ts', ['remove', 'alpha', 'beta'])
    expect(refused.status, refused.output).toBe(1)
    expect(refused.output).toContain('src/lib/uses-beta.ts (imports beta)')
  })
})

describe('removing an app that is not installed', () => {
  it('is refused and leaves the list as it was', () => {
    const copy = copyOfProject()
    const list = path.join(copy, 'src/apps.ts')
    const before = readFileSync(list, 'utf8')
    const removal = run(copy, 'scripts/hatch.ts', ['remove', 'not-an-installed-app'])
    expect(removal.status, removal.output).toBe(1)
    expect(removal.output).toContain('Not installed: not-an-installed-app')
    expect(readFileSync(list, 'utf8')).toBe(before)
  })
})
