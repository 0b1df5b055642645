// What an installed app brings and what it needs (docs/decisions/042), read from its folder: `npm run hatch -- list`
// shows it, and `remove` uses it to refuse, to prune package.json and to name the tables it drops.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { appNeeds, generatedAppFiles, installedAppNames } from '../generate-apps.ts'
import { root } from '../project.ts'

/** Files that are written from the list, never by hand: they name every app and are regenerated after a removal. */
export const generatedFiles = new Set([...Object.keys(generatedAppFiles([])), 'src/routeTree.gen.ts'])
const sourceFolders = ['src', 'tests', 'scripts', 'bench']
export const sourceFile = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/

export const appFolder = (app: string) => `src/features/${app}`

/** The project's own files at its root (vite.config.ts, source.config.ts, the test runners' configurations). */
const rootFiles = () =>
  readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && sourceFile.test(entry.name))
    .map((entry) => entry.name)

export function filesUnder(folder: string): string[] {
  const full = path.join(root, folder)
  if (!existsSync(full)) return []
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name)
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'paraglide' ? [] : filesUnder(relative)
    return [relative]
  })
}

const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

/** The project's source files outside these folders (and outside the generated ones). */
function sourceFilesOutside(folders: readonly string[]): string[] {
  return [...rootFiles(), ...sourceFolders.flatMap(filesUnder)].filter(
    (file) =>
      sourceFile.test(file) && !folders.some((folder) => file.startsWith(`${folder}/`)) && !generatedFiles.has(file),
  )
}

/** Source files outside the app (and outside `alsoLeaving`) that import its code. */
export function filesImporting(app: string, alsoLeaving: readonly string[] = []): string[] {
  // `#/features/app/…`, `../features/app`, `./src/features/app/…`, in any quotes, imported or dynamically imported.
  const reference = new RegExp(`(['"\`])(#|\\.{1,2}|\\.?/?src|[./]*)/features/${app}(/|['"\`])`)
  return sourceFilesOutside([app, ...alsoLeaving].map(appFolder)).filter((file) => reference.test(read(file)))
}

/** The packages a file imports by name (`pkg`, `@scope/pkg`, from `pkg/sub/path`). */
function packagesImportedBy(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+|require\s*\(\s*)['"]([^'"./#][^'"]*)['"]/g)]
  return specifiers.map((match) => {
    const parts = (match[1] ?? '').split('/')
    return (parts[0]?.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/')
  })
}

/** The dependencies of package.json that the app's files import. */
export function dependenciesOf(app: string): string[] {
  const declared = declaredDependencies()
  const used = new Set(
    filesUnder(appFolder(app))
      .filter((file) => sourceFile.test(file))
      .flatMap((file) => packagesImportedBy(read(file))),
  )
  return declared.filter((name) => used.has(name))
}

function declaredDependencies(): string[] {
  const manifest = JSON.parse(read('package.json')) as Record<string, Record<string, string> | undefined>
  return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]
}

/** The dependencies only these apps import: nothing that stays names them (code, configuration or scripts). */
export function dependenciesOnlyOf(apps: readonly string[]): string[] {
  const theirs = new Set(apps.flatMap(dependenciesOf))
  if (theirs.size === 0) return []
  const staying = new Set(sourceFilesOutside(apps.map(appFolder)).flatMap((file) => packagesImportedBy(read(file))))
  // Stylesheets (`@import "pkg"`, `@plugin "pkg"`) and the npm scripts name packages too.
  const styles = filesUnder('src')
    .filter((file) => file.endsWith('.css') && !apps.some((app) => file.startsWith(`${appFolder(app)}/`)))
    .map(read)
    .join('\n')
  const { scripts = {} } = JSON.parse(read('package.json')) as { scripts?: Record<string, string> }
  const named = `${styles}\n${Object.values(scripts).join('\n')}`
  return [...theirs].filter((name) => !staying.has(name) && !named.includes(name))
}

/** The database tables the app's schema declares (src/features/<app>/server/schema.ts). */
export function tablesOf(app: string): string[] {
  const schema = `${appFolder(app)}/server/schema.ts`
  if (!existsSync(path.join(root, schema))) return []
  return [...read(schema).matchAll(/pgTable\(\s*['"]([a-z0-9_]+)['"]/g)].map((match) => match[1] ?? '')
}

/** The environment variables the app documents in its env.md (README.md's table of the apps' variables). */
export function variablesOf(app: string): string[] {
  const docs = `${appFolder(app)}/env.md`
  if (!existsSync(path.join(root, docs))) return []
  return [...read(docs).matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((match) => match[1] ?? '')
}

/** The installed apps that need this one (their app.ts `needs`). */
export function dependentsOf(app: string): string[] {
  return installedAppNames().filter((other) => other !== app && appNeeds(other).includes(app))
}

/** These apps, and every installed app that needs one of them, however indirectly. */
export function withDependents(apps: readonly string[]): string[] {
  const all = new Set(apps)
  for (let grew = true; grew; ) {
    grew = false
    for (const app of [...all]) {
      for (const dependent of dependentsOf(app)) {
        if (!all.has(dependent)) {
          all.add(dependent)
          grew = true
        }
      }
    }
  }
  return [...all]
}

export function appSummary(app: string) {
  const files = filesUnder(appFolder(app)).filter((file) => statSync(path.join(root, file)).isFile())
  const code = files.filter((file) => sourceFile.test(file))
  return {
    files: code.length,
    lines: code.reduce((sum, file) => sum + read(file).split('\n').length, 0),
    routes: files.filter((file) => file.startsWith(`${appFolder(app)}/routes/`)).length,
    tables: tablesOf(app),
    variables: variablesOf(app),
    dependencies: dependenciesOf(app),
    needs: appNeeds(app),
    neededBy: dependentsOf(app),
    importers: filesImporting(app),
  }
}
