// `npm test`: every check the project has, in order, with one summary line at the end.
// Integration tests use PGlite, and PostgreSQL too when DATABASE_URL is set; end-to-end tests drive Debian's
// Chromium against the built production server (docs/decisions/007-testing.md).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { build } from './build.ts'
import { assertSupportedNode, root, typeCheckCommand } from './project.ts'

assertSupportedNode()

const resultsDir = path.join(root, 'test-results')
rmSync(resultsDir, { recursive: true, force: true })
mkdirSync(resultsDir, { recursive: true })

interface StepResult {
  name: string
  ok: boolean
  seconds: number
  /** The step's last lines of output, for the summary when its reports name nothing that failed. */
  lastLines: string[]
}
const steps: StepResult[] = []
const keptLines = 30

/** Runs one step, its output shown as it comes and its last lines kept. */
async function run(
  name: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  console.log(`\n── ${name} ──`)
  const started = performance.now()
  const child = spawn(process.execPath, [path.join(root, script), ...args], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'pipe'],
    env,
  })
  const lastLines: string[] = []
  let partial = ''
  const keep = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n')
    partial = lines.pop() ?? ''
    for (const line of lines) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what this removes
      const plain = line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd()
      if (plain) lastLines.push(plain)
    }
    if (lastLines.length > keptLines) lastLines.splice(0, lastLines.length - keptLines)
  }
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk)
    keep(chunk)
  })
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk)
    keep(chunk)
  })
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  if (partial.trim()) lastLines.push(partial.trimEnd())
  const ok = status === 0
  steps.push({ name, ok, seconds: secondsSince(started), lastLines })
  return ok
}

function secondsSince(started: number): number {
  return Math.round((performance.now() - started) / 1000)
}

function readJson<T>(file: string): T | undefined {
  const full = path.join(resultsDir, file)
  return existsSync(full) ? (JSON.parse(readFileSync(full, 'utf8')) as T) : undefined
}

console.log(`── build (Node ${process.version}, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}) ──`)
let built = true
let buildFailure: string[] = []
const buildStarted = performance.now()
try {
  await build()
} catch (error) {
  console.error(error)
  built = false
  // The build runs in this process, so no child's output keeps its lines: the error's are what the summary shows.
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
  buildFailure = text.split('\n').slice(0, keptLines)
}
steps.push({ name: 'build', ok: built, seconds: secondsSince(buildStarted), lastLines: buildFailure })

await run('type check', typeCheckCommand[0], typeCheckCommand.slice(1))
await run('lint', 'node_modules/@biomejs/biome/bin/biome', ['check', '.'])
await run('import rules', 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs', [
  'src',
  '--config',
  '.dependency-cruiser.cjs',
])
await run('dependency audit', 'scripts/audit.ts', [])
// The core's integration tests run again in the minimal kit, on PGlite: here they take PostgreSQL only, where
// DATABASE_URL names it (coreEngines in tests/integration/test-databases.ts).
await run(
  'unit and integration tests',
  'node_modules/vitest/vitest.mjs',
  ['run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'],
  { ...process.env, HATCH_CORE_PGLITE_IN_KIT: built ? '1' : '0' },
)
if (built) await run('end-to-end tests', 'node_modules/@playwright/test/cli.js', ['test'])
if (built) await run('soak (1 minute)', 'scripts/soak.ts', ['--minutes', '1'])
// Last, in a copy of the project sharing its install: every optional app removed, what is left still builds, passes
// its checks and serves (scripts/minimal-kit.ts).
if (built) await run('minimal kit (every optional app removed)', 'scripts/minimal-kit.ts', [])

interface VitestReport {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[]
}
interface PlaywrightSuite {
  title: string
  file?: string
  specs?: {
    title: string
    line: number
    tests: { projectName: string; status: string; results?: { duration: number }[] }[]
  }[]
  suites?: PlaywrightSuite[]
}
const vitest = readJson<VitestReport>('vitest.json')
const e2e = readJson<{
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  suites: PlaywrightSuite[]
}>('e2e-report.json')

// CI keeps only the end of the output: the names of what failed go last, beside the counts.
function failedTestNames(): string[] {
  const names: string[] = []
  for (const file of vitest?.testResults ?? []) {
    for (const test of file.assertionResults) {
      if (test.status === 'failed') names.push(`${path.relative(root, file.name)} › ${test.fullName}`)
    }
  }
  const visit = (suite: PlaywrightSuite, file: string, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const name = [...titles, spec.title].join(' › ')
          names.push(`${test.status === 'flaky' ? 'flaky ' : ''}[${test.projectName}] ${file}:${spec.line} › ${name}`)
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, file, [...titles, child.title])
  }
  for (const suite of e2e?.suites ?? []) visit(suite, suite.file ?? suite.title, [])
  return names
}
/** End-to-end files by the worker time their tests took, longest first: what to shorten when CI runs long. */
function slowestEndToEndFiles(count: number): string[] {
  const seconds = new Map<string, number>()
  const add = (suite: PlaywrightSuite, file: string) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const ms = (test.results ?? []).reduce((sum, result) => sum + result.duration, 0)
        seconds.set(file, (seconds.get(file) ?? 0) + ms / 1000)
      }
    }
    for (const child of suite.suites ?? []) add(child, file)
  }
  for (const suite of e2e?.suites ?? []) add(suite, suite.file ?? suite.title)
  return [...seconds]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([file, total]) => `${file} ${formatDuration(Math.round(total))}`)
}
const passed = (vitest?.numPassedTests ?? 0) + (e2e?.stats.expected ?? 0)
const failed = (vitest?.numFailedTests ?? 0) + (e2e?.stats.unexpected ?? 0) + (e2e?.stats.flaky ?? 0)
const skipped = (vitest?.numPendingTests ?? 0) + (e2e?.stats.skipped ?? 0)

function formatDuration(seconds: number): string {
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

console.log('\n── summary ──')
// Each step's time, so that the one to shorten is plain when CI nears its time limit.
for (const step of steps) console.log(`${step.ok ? 'ok  ' : 'FAIL'} ${step.name} (${formatDuration(step.seconds)})`)
const slowest = slowestEndToEndFiles(5)
if (slowest.length > 0) console.log(`slowest end-to-end files (worker time): ${slowest.join(', ')}`)
console.log(`in all ${formatDuration(steps.reduce((sum, step) => sum + step.seconds, 0))}`)
const failedSteps = steps.filter((step) => !step.ok)
for (const name of failedTestNames()) console.log(`  ✘ ${name}`)
// A step that failed without a report naming what (a crashed run, a lint or type error, a build): its last lines.
const soakFailures = path.join(resultsDir, 'soak-failures.txt')
const namedByReports: Record<string, boolean> = {
  'unit and integration tests': (vitest?.numFailedTests ?? 0) > 0,
  'end-to-end tests': (e2e?.stats.unexpected ?? 0) + (e2e?.stats.flaky ?? 0) > 0,
  'soak (1 minute)': existsSync(soakFailures),
}
for (const step of failedSteps) {
  if (namedByReports[step.name] || step.lastLines.length === 0) continue
  console.log(`  ✘ ${step.name}, its last lines:`)
  for (const line of step.lastLines) console.log(`    ${line}`)
}
if (existsSync(soakFailures)) {
  for (const line of readFileSync(soakFailures, 'utf8').trim().split('\n')) console.log(`  ✘ soak › ${line}`)
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failedSteps.length > 0 || failed > 0 || skipped > 0 ? 1 : 0)
