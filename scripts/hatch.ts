// `npm run hatch -- list` and `npm run hatch -- remove <app>... | --all-optional [--with-dependents] [--dry-run]`: the
// installed apps (src/apps.ts; docs/decisions/042) and taking them out. `npm run hatch -- new <app> <Entity> …` writes
// a new organization-scoped app (scripts/hatch/new-app.ts). Removing apps deletes what they own (their
// folders), their line in the list and the dependencies nothing else uses, writes the migration that drops their
// tables, regenerates what is generated from the list and runs the type check. No other file is edited: a file
// outside an app that still imports it is a place that does not read the list yet, and the removal is refused.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { installedAppNames } from './generate-apps.ts'
import {
  appFolder,
  appSummary,
  dependenciesOnlyOf,
  dependentsOf,
  filesImporting,
  filesUnder,
  generatedFiles,
  tablesOf,
  variablesOf,
  withDependents,
} from './hatch/app-facts.ts'
import { newApp } from './hatch/new-app.ts'
import { newAppUsage } from './hatch/new-app-spec.ts'
import { compileMessages } from './i18n.ts'
import { withMarkers } from './migration-rule.ts'
import { assertSupportedNode, root, typeCheckCommand } from './project.ts'

function list(): number {
  const apps = installedAppNames()
  console.log(`Installed apps (src/apps.ts): ${apps.length}\n`)
  for (const app of apps) {
    const facts = appSummary(app)
    console.log(`${app}`)
    console.log(`  ${facts.files} source files, ${facts.lines} lines; ${facts.routes} route files`)
    console.log(`  tables: ${facts.tables.join(', ') || 'none'}; variables: ${facts.variables.join(', ') || 'none'}`)
    console.log(`  dependencies it imports: ${facts.dependencies.join(', ') || 'none'}`)
    console.log(
      `  needs: ${facts.needs.join(', ') || 'no other app'}; needed by: ${facts.neededBy.join(', ') || 'none'}`,
    )
    console.log(
      facts.importers.length === 0
        ? '  nothing outside it imports it: removable'
        : `  imported from outside by: ${facts.importers.join(', ')}`,
    )
  }
  return 0
}

/** src/apps.ts without these apps: only the list itself is rewritten, whatever else the file says. */
function removeFromList(apps: readonly string[]): string {
  const source = readFileSync(path.join(root, 'src/apps.ts'), 'utf8')
  return source.replace(
    /(export const installedApps = \[)([^\]]*)(\])/,
    (_, open: string, names: string, close: string) => {
      const kept = [...names.matchAll(/['"]([a-z][a-z0-9-]*)['"]/g)]
        .map((match) => match[1] ?? '')
        .filter((app) => !apps.includes(app))
      return `${open}${kept.map((app) => `'${app}'`).join(', ')}${close}`
    },
  )
}

/** Why these apps cannot go, or nothing. */
function refusal(apps: readonly string[]): string | undefined {
  const installed = installedAppNames()
  const unknown = apps.filter((app) => !installed.includes(app))
  if (apps.length === 0) return 'Name the apps to remove: npm run hatch -- remove <app>... (or --all-optional)'
  if (unknown.length > 0) return `Not installed: ${unknown.join(', ')}. Installed: ${installed.join(', ')}.`
  const needed = apps.flatMap((app) =>
    dependentsOf(app)
      .filter((dependent) => !apps.includes(dependent))
      .map((dependent) => `${app} is needed by ${dependent}`),
  )
  if (needed.length > 0) {
    return `Refused: ${needed.join('; ')}. Remove those too, or add --with-dependents.`
  }
  const blockers = apps.flatMap((app) => filesImporting(app, apps).map((file) => `${file} (imports ${app})`))
  if (blockers.length > 0) {
    return `Refused: files outside ${apps.join(', ')} still import it.\n  ${blockers.join('\n  ')}\nEach should reach the app through its manifests (the files generated from src/apps.ts), or belong to the app.`
  }
  if (installedAppNames(removeFromList(apps)).some((app) => apps.includes(app))) {
    return 'Refused: src/apps.ts could not be rewritten without these apps; nothing was changed.'
  }
  return undefined
}

function runNode(args: string[], stdio: 'inherit' | 'ignore' = 'inherit') {
  return spawnSync(process.execPath, args, { cwd: root, stdio }).status ?? 1
}

async function remove(requested: string[], options: { dryRun: boolean; withDependents: boolean }): Promise<number> {
  const apps = options.withDependents ? withDependents(requested) : requested
  const refused = refusal(apps)
  if (refused) {
    console.error(refused)
    return 1
  }
  const doomed = apps.flatMap((app) => filesUnder(appFolder(app)))
  const tables = apps.flatMap(tablesOf)
  const pruned = dependenciesOnlyOf(apps)
  const verb = (doing: string, would: string) => (options.dryRun ? would : doing)
  if (apps.length > requested.length) console.log(`With the apps that need them: ${apps.join(', ')}`)
  console.log(`${verb('Deleting', 'Would delete')} ${doomed.length} files:`)
  for (const file of doomed) console.log(`  ${file}`)
  console.log(`${verb('Removing', 'Would remove')} from src/apps.ts: ${apps.join(', ')}`)
  console.log(
    `${verb('Removing', 'Would remove')} from package.json${pruned.length > 0 ? ' and package-lock.json' : ''}: ${pruned.join(', ') || 'nothing (no dependency is theirs alone)'}`,
  )
  const commands = npmScriptsOf(apps)
  if (commands.length > 0) {
    console.log(`${verb('Removing', 'Would remove')} the npm scripts that run their code: ${commands.join(', ')}`)
  }
  const variables = apps.flatMap(variablesOf)
  if (variables.length > 0) {
    console.log(
      `${verb('Removing', 'Would remove')} from README.md's table of the apps' variables: ${variables.join(', ')}`,
    )
  }
  if (tables.length > 0) {
    console.log(`${verb('Writing', 'Would write')} a migration in drizzle/ that drops: ${tables.join(', ')}`)
  }
  console.log(`${verb('Regenerating', 'Would regenerate')}: ${[...generatedFiles].join(', ')}`)
  if (options.dryRun) return 0

  for (const app of apps) rmSync(path.join(root, appFolder(app)), { recursive: true, force: true })
  writeFileSync(path.join(root, 'src/apps.ts'), removeFromList(apps))
  // The list as the formatter writes it (a shorter list may fit on one line).
  runNode([path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', 'src/apps.ts'], 'ignore')
  let lockUpdated = true
  if (pruned.length > 0 || commands.length > 0) prunePackageJson(pruned, commands)
  if (pruned.length > 0) {
    lockUpdated = updateLockFile()
    if (!lockUpdated) console.log('npm could not update package-lock.json: run npm install once the removal is done.')
  }
  // The generated files, and the messages compiled without the apps' catalogues (which generateApps unlisted).
  await compileMessages()
  // The route tree is written by TanStack Start's generator when Vite resolves its configuration; a fresh process,
  // since the configuration (and the list it imports) is read once per process.
  const routeTree = runNode([
    '--input-type=module',
    '-e',
    "const { resolveConfig } = await import('vite'); await resolveConfig({ configFile: 'vite.config.ts', logLevel: 'warn' }, 'build', 'production', 'production')",
  ])
  if (routeTree !== 0) return 1
  if (tables.length > 0) {
    // drizzle-kit compares the schema (now without the apps' tables) with the last snapshot: only drops, no question.
    const name = `remove_${apps.join('_').replaceAll('-', '_')}`
    const migrationsBefore = readdirSync(path.join(root, 'drizzle'))
    const migration = runNode(
      [path.join(root, 'node_modules/drizzle-kit/bin.cjs'), 'generate', '--name', name],
      'ignore',
    )
    const written = readdirSync(path.join(root, 'drizzle')).filter(
      (file) => file.endsWith('.sql') && !migrationsBefore.includes(file),
    )
    if (migration !== 0 || written.length !== 1) {
      console.error('drizzle-kit could not write the migration: run npm run db:generate to see why.')
      return 1
    }
    // Dropping tables contracts the schema (scripts/migration-rule.ts): the file says so at its top, with the day their
    // code went (today, this removal).
    const file = path.join(root, 'drizzle', written[0] ?? '')
    writeFileSync(file, withMarkers(readFileSync(file, 'utf8'), new Date().toISOString().slice(0, 10)))
    console.log(
      `Wrote drizzle/${written[0]}, marked as a contract step. A deployment keeps the apps' data until it applies that migration (npm run db:migrate, or its next start).\n` +
        'It drops them in the release that stops using them: with several servers restarted one at a time, those still on the previous release fail on these apps until their turn, so deploy it at a quiet time or stop every server first (docs: Upgrading).',
    )
  }
  // The content collections' modules (.source/) are written by a build; a fresh clone has none, and the type check reads
  // them: fumadocs-mdx writes them from the collections that remain.
  if (runNode([path.join(root, 'node_modules/fumadocs-mdx/bin.js')], 'ignore') !== 0) {
    console.error('fumadocs-mdx could not write the content collections: run npm run build to see why.')
    return 1
  }
  console.log('Type check…')
  const typeCheck = runNode([path.join(root, typeCheckCommand[0]), ...typeCheckCommand.slice(1)])
  console.log(
    typeCheck === 0
      ? `Removed ${apps.join(', ')}.${lockUpdated ? '' : ' Run npm install to update package-lock.json.'} Review with git status; git restore and git clean bring the apps back.`
      : 'The type check failed: see above. git restore and git clean bring the apps back.',
  )
  return typeCheck
}

/** The npm scripts that run a file of these apps (`npm run billing` runs src/features/billing/scripts/billing.ts). */
function npmScriptsOf(apps: readonly string[]): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>
  }
  return Object.entries(manifest.scripts ?? {})
    .filter(([, command]) => apps.some((app) => command.includes(`${appFolder(app)}/`)))
    .map(([name]) => name)
}

/** package.json without these dependencies and npm scripts, written as npm writes it. */
function prunePackageJson(names: readonly string[], commands: readonly string[]): void {
  const file = path.join(root, 'package.json')
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  for (const field of ['dependencies', 'devDependencies']) {
    const dependencies = manifest[field] as Record<string, string> | undefined
    for (const name of names) if (dependencies) delete dependencies[name]
  }
  const scripts = manifest.scripts as Record<string, string> | undefined
  for (const name of commands) if (scripts) delete scripts[name]
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
}

/**
 * package-lock.json without what package.json no longer asks for, so that `npm ci` (which refuses a lock out of step
 * with package.json) installs the smaller set. Only the lock is written: node_modules keeps the packages until the next
 * install. False when npm could not do it.
 */
function updateLockFile(): boolean {
  const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline']
  // The npm that runs `npm run hatch`, else the one on the PATH.
  const npmCli = process.env.npm_execpath
  const npm = npmCli
    ? spawnSync(process.execPath, [npmCli, ...args], { cwd: root, stdio: 'ignore' })
    : spawnSync('npm', args, { cwd: root, stdio: 'ignore', shell: process.platform === 'win32' })
  return npm.status === 0
}

if (import.meta.main) {
  assertSupportedNode()
  const [command, ...rest] = process.argv.slice(2)
  if (command === 'new') process.exit(await newApp(rest))
  const named = rest.filter((argument) => !argument.startsWith('--'))
  // Every app in the list is optional: without them all, what is left is the minimal kit.
  const apps = rest.includes('--all-optional') ? [...new Set([...named, ...installedAppNames()])] : named
  if (command === 'list') process.exit(list())
  if (command === 'remove' && apps.length === 0 && rest.includes('--all-optional')) {
    console.log('No optional app is installed: this is the minimal kit already.')
    process.exit(0)
  }
  if (command === 'remove') {
    process.exit(
      await remove(apps, { dryRun: rest.includes('--dry-run'), withDependents: rest.includes('--with-dependents') }),
    )
  }
  console.error('Usage: npm run hatch -- list | remove <app>... | --all-optional [--with-dependents] [--dry-run]')
  console.error(newAppUsage)
  process.exit(1)
}
