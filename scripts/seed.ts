// `npm run db:seed -- --books 10000 [--organization <slug>]` fills an organization (the oldest one unless named) with
// sample books for demos and benchmarks. With the embedded database, stop the server first: only one process can
// open the data folder.

import { parseArgs } from 'node:util'
import { runOperatorTask } from './project.ts'

const usage = 'Usage: npm run db:seed -- --books <count, 1 to 1000000> [--organization <slug>]'
let options: { books?: string; organization?: string }
try {
  options = parseArgs({ options: { books: { type: 'string' }, organization: { type: 'string' } } }).values
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${usage}`)
  process.exit(2)
}
const count = Number(options.books)
if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
  console.error(usage)
  process.exit(2)
}

await runOperatorTask(async (operatorTasks) => {
  const started = performance.now()
  const result = await operatorTasks.seedBooks(count, options.organization)
  if (!result) {
    console.error(
      options.organization
        ? `No organization has the slug ${options.organization}.`
        : 'There is no organization yet: sign up first (every account gets a workspace).',
    )
    return 1
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`Added ${result.inserted} books to the organization "${result.organization}" in ${seconds} s.`)
  return 0
})
