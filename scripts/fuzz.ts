// `npm run fuzz`: the fuzz tests (tests/fuzz) with 1,000 cases per target instead of `npm test`'s 100, then the
// count of cases each target ran. FUZZ_RUNS sets another count, FUZZ_SEED another seed; arguments go to Vitest
// (e.g. `npm run fuzz -- tests/fuzz/book-csv.test.ts`). PostgreSQL is fuzzed too when DATABASE_URL is set.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { assertSupportedNode, root } from './project.ts'

assertSupportedNode()

const tallyFile = path.join(root, 'test-results', 'fuzz-tally.jsonl')
mkdirSync(path.dirname(tallyFile), { recursive: true })
rmSync(tallyFile, { force: true })

const args = process.argv.slice(2)
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...(args.length > 0 ? args : ['tests/fuzz'])],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_RUNS: process.env.FUZZ_RUNS ?? '1000',
      FUZZ_TALLY_FILE: tallyFile,
    },
  },
)

const tally = new Map<string, number>()
if (existsSync(tallyFile)) {
  for (const line of readFileSync(tallyFile, 'utf8').split('\n').filter(Boolean)) {
    const { target, cases } = JSON.parse(line) as { target: string; cases: number }
    tally.set(target, (tally.get(target) ?? 0) + cases)
  }
}
console.log('\n── fuzz cases per target (all engines) ──')
const width = Math.max(0, ...[...tally.keys()].map((target) => target.length))
for (const [target, cases] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`${target.padEnd(width)}  ${cases}`)
}
const total = [...tally.values()].reduce((sum, cases) => sum + cases, 0)
console.log(`${tally.size} targets, ${total} cases${result.status === 0 ? '' : ' — FAILED (see above)'}`)
process.exit(result.status ?? 1)
