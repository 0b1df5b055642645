// `node scripts/minimal-kit.ts [--keep] [--figures]`: the minimal kit, every optional app removed (src/apps.ts;
// docs/decisions/042), still builds, passes the lint, the import rules and the unit and integration tests that remain,
// and serves: a smoke test in Chromium on the embedded database and on PostgreSQL (when DATABASE_URL names a server)
// finds every page of its navigation, and nothing of a removed app in its pages, sitemap, llms.txt or messages. It works
// in a copy of the project sharing its install; the project itself is only read.
// `--figures` (`npm run bench:kits`) measures instead of checking: the kit's figures beside the full kit's (cold starts,
// first load, memory after the smoke), the full kit measured the same way on a second copy that reuses the project's
// build (dist/): copying it takes a second where building the full kit again would take a minute. They are
// measurements, so they stay out of `npm test`, where they took three of CI's minutes.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { docsPageUrls } from './docs-pages.ts'
import { installedAppNames } from './generate-apps.ts'
import { dependencyCount, figuresTable, type KitFigures, landingFirstLoad, sourceLines } from './minimal-kit/figures.ts'
import { kitUrl, startKitServer } from './minimal-kit/kit-server.ts'
import { appRoutePaths, leftoverMessages } from './minimal-kit/removed-apps.ts'
import { assertSupportedNode, root } from './project.ts'
import { copyOfProject, removeCopy } from './project-copy.ts'

assertSupportedNode()
const keep = process.argv.includes('--keep')
const figuresOnly = process.argv.includes('--figures')
const apps = installedAppNames()
// Their routes, and their docs pages (served by the core's docs routes).
const removedRoutes = apps.flatMap((app) => [
  ...appRoutePaths(root, app),
  ...docsPageUrls(path.join(root, 'src/features', app, 'docs')),
])
const postgresUrl = process.env.DATABASE_URL

interface StepResult {
  name: string
  outcome: 'ok' | 'FAIL' | 'skipped'
  seconds: number
  note?: string
}
const steps: StepResult[] = []
const copies: string[] = []

/** Runs one step and records its time; a failure is printed and recorded, and the steps that need it are skipped. */
async function step(name: string, action: () => boolean | undefined | Promise<boolean | undefined>): Promise<boolean> {
  console.log(`\n── minimal kit: ${name} ──`)
  const started = performance.now()
  let ok = false
  try {
    ok = (await action()) !== false
  } catch (error) {
    console.error(error)
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10
  steps.push({ name, outcome: ok ? 'ok' : 'FAIL', seconds })
  if (!ok) console.error(`✘ minimal kit: ${name} failed (see above)`)
  return ok
}

/** Records a step that does not apply; true, as nothing that follows depends on it failing. */
function skip(name: string, why: string): true {
  console.log(`\n── minimal kit: ${name} ── skipped: ${why}`)
  steps.push({ name, outcome: 'skipped', seconds: 0, note: why })
  return true
}

/** A Node program of the project, run in the copy with everything it prints shown. */
function runIn(dir: string, script: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  return spawnSync(process.execPath, [script, ...args], { cwd: dir, env, stdio: 'inherit' }).status === 0
}

/** The environment without the shared PostgreSQL and Redis: runs in a copy use a database of their own. */
function withoutSharedServers(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...env } = process.env
  return { ...env, ...extra }
}

/** The end-to-end server of a kit with the smoke test run against it; the server's memory once it has run. */
async function smoke(dir: string, leg: string, routes: string[], databaseUrl?: string): Promise<number | undefined> {
  const server = await startKitServer(dir, { script: 'tests/e2e/server.ts', readyPath: '/e2e-ready.txt', databaseUrl })
  try {
    console.log(`end-to-end server ready in ${(server.startMs / 1000).toFixed(1)} s`)
    const passed = runIn(
      dir,
      'node_modules/@playwright/test/cli.js',
      ['test', '--config', 'tests/minimal-kit/playwright.config.ts'],
      withoutSharedServers({
        MINIMAL_KIT_REMOVED_ROUTES: JSON.stringify(routes),
        MINIMAL_KIT_OUTPUT: path.join(root, 'test-results', `minimal-kit-${leg}`),
      }),
    )
    const rss = server.rssMb()
    return passed ? rss : undefined
  } finally {
    await server.stop()
  }
}

/** Cold starts measured per kit: the median is the figure, so one start slowed by the machine does not decide it. */
const coldStarts = 3

/** The production server as an operator starts it, on a fresh embedded database: the landing page's first load. */
async function firstLoad(dir: string, figures: KitFigures): Promise<boolean> {
  const server = await startKitServer(dir, { script: 'scripts/start.ts', readyPath: '/api/health' })
  try {
    const load = await landingFirstLoad(kitUrl)
    figures.landingScripts = load.scripts
    figures.landingScriptKb = load.scriptKb
    console.log(`/en/ loads ${load.scripts} scripts, ${load.scriptKb.toFixed(1)} KB`)
    return true
  } finally {
    await server.stop()
  }
}

/**
 * Each kit's cold start to healthy, on a fresh embedded database and compile cache each time, the kits in turn: measured
 * together at the end, so that neither is measured while the machine is still busy with what ran before (the minimal
 * kit's single start, right after its tests, once read 2 s slower than the full kit's).
 */
async function coldStartsInTurn(kits: readonly { dir: string; figures: KitFigures }[]): Promise<boolean> {
  const starts = kits.map(() => [] as number[])
  for (let attempt = 0; attempt < coldStarts; attempt++) {
    for (const [index, kit] of kits.entries()) {
      const server = await startKitServer(kit.dir, { script: 'scripts/start.ts', readyPath: '/api/health' })
      starts[index]?.push(server.startMs)
      await server.stop()
    }
  }
  for (const [index, kit] of kits.entries()) {
    const measured = starts[index] ?? []
    kit.figures.coldStartMs = [...measured].sort((a, b) => a - b)[Math.floor(measured.length / 2)]
    console.log(`${kit.dir}: healthy after ${measured.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`)
  }
  return true
}

/** What `npm test` asks of the kit beyond building and serving: the lint, the import rules and the tests that remain. */
async function checks(kit: string): Promise<void> {
  await step('lint', () => runIn(kit, 'node_modules/@biomejs/biome/bin/biome', ['check', '.']))
  await step('import rules', () =>
    runIn(kit, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs', [
      'src',
      '--config',
      '.dependency-cruiser.cjs',
    ]),
  )
  await step('no message of a removed app left', () => {
    const left = leftoverMessages(root, kit, apps)
    if (left.length > 0) {
      console.error(`messages/*.json still hold ${left.length} messages only the removed apps used:`)
      console.error(`  ${left.join(', ')}`)
    }
    return left.length === 0
  })
  // On PGlite only: the PostgreSQL and Redis legs of these tests run on the full kit in npm test, and the core code
  // they exercise is the same; running them twice would add minutes to CI for little.
  await step('unit and integration tests (PGlite)', () => {
    const report = path.join(kit, 'test-results/vitest-minimal-kit.json')
    const passed = runIn(
      kit,
      'node_modules/vitest/vitest.mjs',
      ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      // HATCH_KIT: the generator's test runs here only (vitest.config.ts).
      withoutSharedServers({ HATCH_KIT: 'minimal' }),
    )
    if (existsSync(report)) vitestFailures = failedVitestTests(report, kit)
    return passed
  })
}

const minimal: KitFigures = { sourceLines: 0, dependencies: '' }
let full: KitFigures | undefined
let vitestFailures: string[] = []
const started = performance.now()

try {
  console.log(`Installed apps, all removed in the minimal kit: ${apps.length > 0 ? apps.join(', ') : '(none)'}`)
  console.log(`Their routes, which the kit must not show: ${removedRoutes.join(', ') || '(none)'}`)
  let kit = ''
  const removed =
    (await step('copy the project', () => {
      kit = copyOfProject(root, { prefix: 'hatch-minimal-kit-' })
      copies.push(kit)
      console.log(kit)
      return true
    })) &&
    (apps.length === 0
      ? skip('remove every optional app', 'none is installed: the project is the minimal kit')
      : await step('remove every optional app (and type check)', () =>
          runIn(kit, 'scripts/hatch.ts', ['remove', '--all-optional']),
        ))
  if (!removed) throw new Error('the minimal kit could not be made')
  minimal.sourceLines = sourceLines(kit)
  minimal.dependencies = dependencyCount(kit)

  const built = await step('build', () => runIn(kit, 'scripts/build.ts', [], withoutSharedServers()))
  if (!figuresOnly) await checks(kit)

  if (!built) skip('smoke, embedded database', 'the build failed')
  else {
    await step('first load, embedded database', () => firstLoad(kit, minimal))
    await step('smoke in Chromium, embedded database', async () => {
      minimal.rssAfterSmokeMb = await smoke(kit, 'embedded', removedRoutes)
      return minimal.rssAfterSmokeMb !== undefined
    })
    if (figuresOnly) skip('smoke in Chromium, PostgreSQL', 'measuring only (--figures)')
    else if (!postgresUrl) skip('smoke in Chromium, PostgreSQL', 'DATABASE_URL is not set')
    else {
      // The end-to-end server makes a database of its own on that server and drops it; asked through the
      // maintenance database, so the one DATABASE_URL names is never opened.
      const maintenance = new URL(postgresUrl)
      maintenance.pathname = '/postgres'
      await step('smoke in Chromium, PostgreSQL', async () => {
        return (await smoke(kit, 'postgres', removedRoutes, maintenance.href)) !== undefined
      })
    }
  }

  full = { sourceLines: sourceLines(root), dependencies: dependencyCount(root) }
  if (!figuresOnly) skip('full kit figures', 'measured by npm run bench:kits')
  else if (!existsSync(path.join(root, 'dist/server/server.js')))
    skip('full kit figures', 'the project has no build (dist/)')
  else {
    const fullFigures = full
    let fullCopy = ''
    await step('full kit figures (a copy reusing dist/)', async () => {
      const copy = copyOfProject(root, { prefix: 'hatch-full-kit-', withBuild: true })
      copies.push(copy)
      fullCopy = copy
      await firstLoad(copy, fullFigures)
      fullFigures.rssAfterSmokeMb = await smoke(copy, 'full', [])
      return fullFigures.rssAfterSmokeMb !== undefined
    })
    if (built && fullCopy) {
      await step('cold starts, the two kits in turn', () =>
        coldStartsInTurn([
          { dir: kit, figures: minimal },
          { dir: fullCopy, figures: fullFigures },
        ]),
      )
    }
  }
} catch (error) {
  console.error(`✘ minimal kit: ${(error as Error).message}`)
} finally {
  if (keep) console.log(`\nKept: ${copies.join(', ')}`)
  else for (const copy of copies) removeCopy(copy)
}

function failedVitestTests(report: string, kit: string): string[] {
  const results = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: {
      name: string
      status: string
      message?: string
      assertionResults: { fullName: string; status: string }[]
    }[]
  }
  return results.testResults.flatMap((file) => {
    const name = path.relative(kit, file.name)
    const failed = file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${name} › ${test.fullName}`)
    return failed.length === 0 && file.status === 'failed' ? [`${name}: ${file.message ?? 'failed'}`] : failed
  })
}

console.log('\n── minimal kit: summary ──')
for (const result of steps) {
  console.log(
    `${result.outcome.padEnd(7)} ${result.name} (${result.seconds} s)${result.note ? `: ${result.note}` : ''}`,
  )
}
console.log(`in all ${Math.round((performance.now() - started) / 1000)} s\n`)
console.log(figuresTable(full, minimal))
for (const failure of vitestFailures) console.log(`  ✘ ${failure}`)
const failedSteps = steps.filter((result) => result.outcome === 'FAIL').map((result) => result.name)
if (failedSteps.length > 0 || steps.length === 0) {
  console.error(`\n✘ The minimal kit failed: ${failedSteps.join('; ') || 'it could not be made'}`)
  process.exit(1)
}
