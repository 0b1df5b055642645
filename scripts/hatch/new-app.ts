// `npm run hatch -- new <app> <Entity> --fields "…" --label "English/中文" --field-label "field=English/中文"`: writes an
// organization-scoped app that follows every rule the project keeps (one definition per entity, a policy row per
// procedure, permissions with their words, messages in both languages, docs, tests), adds it to src/apps.ts, writes
// its migration, regenerates what is generated from the list, and type-checks. `hatch remove <app>` takes it out.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { installedAppNames } from '../generate-apps.ts'
import { compileMessages } from '../i18n.ts'
import { root, typeCheckCommand } from '../project.ts'
import { appFolder } from './app-facts.ts'
import { type NewAppSpec, newAppSpec, readNewAppArguments, SpecError, takenMessageKeys } from './new-app-spec.ts'
import { columnsFile, detailsFile, formDialogFile } from './templates/component-files.ts'
import { csvFile, mcpToolsFile } from './templates/csv-and-tool-files.ts'
import { docsFiles } from './templates/docs-files.ts'
import { entityFile, messagesModuleFile, rulesFile, schemasFile, searchFile } from './templates/entity-files.ts'
import { deleteHookFile, importDialogFile } from './templates/list-action-files.ts'
import { messageCatalogues, messageKeysOf } from './templates/message-files.ts'
import { routeFiles } from './templates/route-files.ts'
import { routerFile } from './templates/router-files.ts'
import { appFile, clientQueriesFile, consoleFile, screenFile } from './templates/screen-files.ts'
import {
  eventDataFile,
  eventKindsFile,
  permissionsFile,
  policyFile,
  queriesFile,
  routersFile,
  schemaFile,
  serverAppFile,
} from './templates/server-files.ts'
import {
  e2eSpecFile,
  foreignRecordInputsFile,
  integrationTestFile,
  permissionGrantsFile,
  routeFuzzTargetsFile,
} from './templates/test-files.ts'

/** Every file of the new app, by its path inside the app's folder. */
export function newAppFiles(spec: NewAppSpec): Record<string, string> {
  const s = spec
  const catalogues = messageCatalogues(s)
  return {
    'app.ts': appFile(s),
    'console.ts': consoleFile(s),
    'permissions.ts': permissionsFile(s),
    'event-kinds.ts': eventKindsFile(s),
    'schemas.ts': schemasFile(s),
    'search.ts': searchFile(s),
    [`${s.entityFile}-entity.ts`]: entityFile(s),
    [`${s.entityFile}-rules.ts`]: rulesFile(s),
    [`${s.entityFile}-messages.ts`]: messagesModuleFile(s),
    [`${s.entityFile}-queries.ts`]: clientQueriesFile(s),
    [`components/${s.app}-screen.tsx`]: screenFile(s),
    [`components/${s.entityFile}-columns.tsx`]: columnsFile(s),
    [`components/${s.entityFile}-form-dialog.tsx`]: formDialogFile(s),
    [`components/${s.entityFile}-details.tsx`]: detailsFile(s),
    [`components/use-delete-${s.app}.ts`]: deleteHookFile(s),
    [`components/import-${s.app}-dialog.tsx`]: importDialogFile(s),
    ...routeFiles(s),
    'server/app.ts': serverAppFile(s),
    'server/schema.ts': schemaFile(s),
    'server/routers.ts': routersFile(s),
    'server/policy.ts': policyFile(s),
    [`server/${s.app}-router.ts`]: routerFile(s),
    [`server/${s.entityFile}-queries.ts`]: queriesFile(s),
    [`server/${s.entityFile}-event-data.ts`]: eventDataFile(s),
    [`server/${s.entityFile}-csv.ts`]: csvFile(s),
    'server/mcp-tools.ts': mcpToolsFile(s),
    'messages/en.json': catalogues.en,
    'messages/zh.json': catalogues.zh,
    ...docsFiles(s),
    [`tests/${s.app}.test.ts`]: integrationTestFile(s),
    'tests/permission-grants.ts': permissionGrantsFile(s),
    'tests/foreign-record-inputs.ts': foreignRecordInputsFile(s),
    'tests/route-fuzz-targets.ts': routeFuzzTargetsFile(s),
    [`tests/e2e/${s.app}.spec.ts`]: e2eSpecFile(s),
  }
}

/** src/apps.ts with the app in the list, in name order; only the list itself is rewritten. */
function withAppListed(app: string): string {
  const source = readFileSync(path.join(root, 'src/apps.ts'), 'utf8')
  return source.replace(
    /(export const installedApps = \[)([^\]]*)(\])/,
    (_, open: string, names: string, close: string) => {
      const listed = [...names.matchAll(/['"]([a-z][a-z0-9-]*)['"]/g)].map((match) => match[1] ?? '')
      return `${open}${[...listed, app]
        .sort()
        .map((name) => `'${name}'`)
        .join(', ')}${close}`
    },
  )
}

const runNode = (args: string[], stdio: 'inherit' | 'ignore' = 'inherit') =>
  spawnSync(process.execPath, args, { cwd: root, stdio }).status ?? 1

function fail(message: string): number {
  console.error(message)
  return 1
}

export async function newApp(args: readonly string[]): Promise<number> {
  let spec: NewAppSpec
  try {
    spec = newAppSpec(readNewAppArguments(args))
  } catch (error) {
    if (error instanceof SpecError) return fail(error.message)
    throw error
  }
  const taken = takenMessageKeys()
  const clashes = messageKeysOf(spec).filter((key) => taken.has(key))
  if (clashes.length > 0) return fail(`Refused: these message keys exist already: ${clashes.join(', ')}.`)
  if (!installedAppNames(withAppListed(spec.app)).includes(spec.app)) {
    return fail('Refused: src/apps.ts could not be rewritten with the new app; nothing was written.')
  }

  const folder = appFolder(spec.app)
  const files = newAppFiles(spec)
  console.log(`Writing ${Object.keys(files).length} files in ${folder}:`)
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(root, folder, file)
    mkdirSync(path.dirname(target), { recursive: true })
    writeFileSync(target, content)
    console.log(`  ${folder}/${file}`)
  }
  console.log(`Adding ${spec.app} to src/apps.ts`)
  writeFileSync(path.join(root, 'src/apps.ts'), withAppListed(spec.app))
  // The generated code as the formatter writes it, and the list (a longer one may no longer fit on one line).
  runNode(
    [path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'check', '--write', folder, 'src/apps.ts'],
    'ignore',
  )

  // The files generated from the list, and the messages compiled with the new catalogues.
  await compileMessages()
  // The route tree is written by TanStack Start's generator when Vite resolves its configuration, in a fresh process
  // since the configuration (and the list it imports) is read once per process.
  const routeTree = runNode([
    '--input-type=module',
    '-e',
    "const { resolveConfig } = await import('vite'); await resolveConfig({ configFile: 'vite.config.ts', logLevel: 'warn' }, 'build', 'production', 'production')",
  ])
  if (routeTree !== 0) return fail('The route tree could not be written: see above.')

  const migrationsBefore = readdirSync(path.join(root, 'drizzle'))
  const name = `add_${spec.table}`
  if (runNode([path.join(root, 'node_modules/drizzle-kit/bin.cjs'), 'generate', '--name', name], 'ignore') !== 0) {
    return fail('drizzle-kit could not write the migration: run npm run db:generate to see why.')
  }
  const written = readdirSync(path.join(root, 'drizzle')).filter((file) => !migrationsBefore.includes(file))
  console.log(
    `Wrote the migration: ${written.map((file) => `drizzle/${file}`).join(', ') || 'none (nothing changed?)'}`,
  )

  // The content collections' modules, with the app's docs collection (the type check reads them).
  if (!existsSync(path.join(root, 'node_modules/fumadocs-mdx/bin.js'))) return fail('fumadocs-mdx is not installed.')
  if (runNode([path.join(root, 'node_modules/fumadocs-mdx/bin.js')], 'ignore') !== 0) {
    return fail('fumadocs-mdx could not write the content collections: run npm run build to see why.')
  }
  console.log('Type check…')
  const typeCheck = runNode([path.join(root, typeCheckCommand[0]), ...typeCheckCommand.slice(1)])
  console.log(
    typeCheck === 0
      ? `Added ${spec.app}: Console → ${spec.english.many} at /console/${spec.app}. Its fields are in ${folder}/${spec.entityFile}-entity.ts; npm run hatch -- remove ${spec.app} takes it out again.`
      : 'The type check failed: see above. npm run hatch -- remove <app> takes the app out again.',
  )
  return typeCheck
}
