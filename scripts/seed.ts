// `npm run db:seed -- --books 10000 [--organization <slug>]` fills an organization (the oldest one unless named) with
// sample records for demos and benchmarks: what can be seeded comes from the installed apps (their server manifest's
// `seeds`; books seeds books). With the embedded database, stop the server first: only one process can open the data
// folder.

import { parseArgs } from 'node:util'
import { runOperatorTask } from './project.ts'

let values: Record<string, string | boolean | undefined>
try {
  values = parseArgs({ strict: false, options: { organization: { type: 'string' } } }).values
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(2)
}

await runOperatorTask(async (operatorTasks) => {
  const names: string[] = operatorTasks.seedNames()
  const usage =
    names.length === 0
      ? 'None of the installed apps has sample records to seed.'
      : `Usage: npm run db:seed -- ${names.map((name) => `--${name} <count, 1 to 1000000>`).join(' | ')} [--organization <slug>]`
  const asked = Object.keys(values).filter((key) => key !== 'organization')
  const name = asked[0] ?? ''
  const count = Number(values[name])
  const organization = typeof values.organization === 'string' ? values.organization : undefined
  if (asked.length !== 1 || !names.includes(name) || !Number.isInteger(count) || count < 1 || count > 1_000_000) {
    console.error(usage)
    return 2
  }
  const started = performance.now()
  const result = await operatorTasks.seed(name, count, organization)
  if (!result) {
    console.error(
      organization
        ? `No organization has the slug ${organization}.`
        : 'There is no organization yet: sign up first (every account gets a workspace).',
    )
    return 1
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`Added ${result.inserted} ${name} to the organization "${result.organization}" in ${seconds} s.`)
  return 0
})
