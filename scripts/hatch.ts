// `npm run hatch -- list` and `npm run hatch -- remove <app>... | --all-optional [--dry-run]`: the installed apps (src/apps.ts;
// docs/decisions/042) and taking them out. Removing an app deletes what it owns (its folder) and its line in the list,
// then regenerates what is generated from the list and runs the type check. Nothing else is edited: a file outside
// the app that still imports it is a place that does not read the list yet, and the removal is refused naming it.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { generateApps, generatedAppFiles, installedAppNames } from './generate-apps.ts'
import { assertSupportedNode, root } from './project.ts'

/** Files that are written from the list, never by hand: they name every app and are regenerated after a removal. */
const generatedFiles = new Set([...Object.keys(generatedAppFiles([])), 'src/routeTree.gen.ts'])
const sourceFolders = ['src', 'tests', 'scripts', 'bench']
const sourceFile = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/

/** The project's own files at its root (vite.config.ts, source.config.ts, the test runners' configurations). */
const rootFiles = () =>
  readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && sourceFile.test(entry.name))
    .map((entry) => entry.name)

function filesUnder(folder: string): string[] {
  const full = path.join(root, folder)
  if (!existsSync(full)) return []
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name)
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'paraglide' ? [] : filesUnder(relative)
    return [relative]
  })
}

const appFolder = (app: string) => `src/features/${app}`

/** Source files outside the app that import its code. */
export function filesImporting(app: string): string[] {
  const own = `${appFolder(app)}/`
  // `#/features/app/…`, `../features/app`, `./src/features/app/…`, in any quotes, imported or dynamically imported.
  const reference = new RegExp(`(['"\`])(#|\\.{1,2}|\\.?/?src|[./]*)/features/${app}(/|['"\`])`)
  return [...rootFiles(), ...sourceFolders.flatMap(filesUnder)]
    .filter((file) => sourceFile.test(file) && !file.startsWith(own) && !generatedFiles.has(file))
    .filter((file) => reference.test(readFileSync(path.join(root, file), 'utf8')))
}

function linesOf(files: string[]): number {
  return files.reduce((sum, file) => sum + readFileSync(path.join(root, file), 'utf8').split('\n').length, 0)
}

function list(): number {
  const apps = installedAppNames()
  console.log(`Installed apps (src/apps.ts): ${apps.length}\n`)
  for (const app of apps) {
    const files = filesUnder(appFolder(app)).filter((file) => statSync(path.join(root, file)).isFile())
    const routes = files.filter((file) => file.startsWith(`${appFolder(app)}/routes/`))
    const code = files.filter((file) => sourceFile.test(file))
    const importers = filesImporting(app)
    console.log(`${app}`)
    console.log(`  ${code.length} source files, ${linesOf(code)} lines; ${routes.length} route files`)
    console.log(
      importers.length === 0
        ? '  nothing outside it imports it: removable'
        : `  imported from outside by: ${importers.join(', ')}`,
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

function remove(apps: string[], dryRun: boolean): number {
  const installed = installedAppNames()
  const unknown = apps.filter((app) => !installed.includes(app))
  if (apps.length === 0 || unknown.length > 0) {
    console.error(
      apps.length === 0
        ? 'Name the apps to remove: npm run hatch -- remove <app>...'
        : `Not installed: ${unknown.join(', ')}. Installed: ${installed.join(', ')}.`,
    )
    return 1
  }
  const blockers = apps.flatMap((app) =>
    filesImporting(app)
      .filter((file) => !apps.some((removed) => file.startsWith(`${appFolder(removed)}/`)))
      .map((file) => `${file} (imports ${app})`),
  )
  if (blockers.length > 0) {
    console.error(`Refused: files outside ${apps.join(', ')} still import it.\n  ${blockers.join('\n  ')}`)
    console.error('Each should reach the app through its manifest (src/apps.gen.ts), or belong to the app.')
    return 1
  }
  const doomed = apps.flatMap((app) => filesUnder(appFolder(app)))
  const after = removeFromList(apps)
  const left = installedAppNames(after)
  if (apps.some((app) => left.includes(app))) {
    console.error('Refused: src/apps.ts could not be rewritten without these apps; nothing was changed.')
    return 1
  }
  console.log(`${dryRun ? 'Would delete' : 'Deleting'} ${doomed.length} files:`)
  for (const file of doomed) console.log(`  ${file}`)
  console.log(`${dryRun ? 'Would remove' : 'Removing'} from src/apps.ts: ${apps.join(', ')}`)
  console.log(`${dryRun ? 'Would regenerate' : 'Regenerating'}: ${[...generatedFiles].join(', ')}`)
  if (dryRun) return 0

  for (const app of apps) rmSync(path.join(root, appFolder(app)), { recursive: true, force: true })
  writeFileSync(path.join(root, 'src/apps.ts'), after)
  // The list as the formatter writes it (a shorter list may fit on one line).
  spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', 'src/apps.ts'],
    {
      cwd: root,
      stdio: 'ignore',
    },
  )
  generateApps()
  // The route tree is written by TanStack Start's generator when Vite resolves its configuration; a fresh process,
  // since the configuration (and the list it imports) is read once per process.
  const routeTree = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const { resolveConfig } = await import('vite'); await resolveConfig({ configFile: 'vite.config.ts', logLevel: 'warn' }, 'build', 'production', 'production')",
    ],
    { cwd: root, stdio: 'inherit' },
  )
  if (routeTree.status !== 0) return 1
  console.log('Type check…')
  const typeCheck = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit'], {
    cwd: root,
    stdio: 'inherit',
  })
  console.log(
    typeCheck.status === 0
      ? `Removed ${apps.join(', ')}. Review with git status; git restore brings an app back.`
      : 'The type check failed: see above. git restore brings the app back.',
  )
  return typeCheck.status ?? 1
}

if (import.meta.main) {
  assertSupportedNode()
  const [command, ...rest] = process.argv.slice(2)
  const dryRun = rest.includes('--dry-run')
  const named = rest.filter((argument) => !argument.startsWith('--'))
  // Every app in the list is optional: without them all, what is left is the minimal kit.
  const apps = rest.includes('--all-optional') ? [...new Set([...named, ...installedAppNames()])] : named
  if (command === 'list') process.exit(list())
  if (command === 'remove') process.exit(remove(apps, dryRun))
  console.error('Usage: npm run hatch -- list | remove <app>... | --all-optional [--dry-run]')
  process.exit(1)
}
