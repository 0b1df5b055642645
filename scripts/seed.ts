// `npm run db:seed -- --books 10000 [--organization <slug>]` fills an organization (the oldest one unless named) with
// sample books for demos and benchmarks. With the embedded database, stop the server first: only one process can
// open the data folder.

import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { assertSupportedNode, buildIsStale, serverBundle } from './project.ts'

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

assertSupportedNode()
if (buildIsStale()) await (await import('./build.ts')).build()
const { lifecycle, operatorTasks } = await import(pathToFileURL(serverBundle).href)
let exitCode = 0
try {
  await lifecycle.ensureServerReady()
  const started = performance.now()
  const result = await operatorTasks.seedBooks(count, options.organization)
  if (result) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(`Added ${result.inserted} books to the organization "${result.organization}" in ${seconds} s.`)
  } else {
    console.error(
      options.organization
        ? `No organization has the slug ${options.organization}.`
        : 'There is no organization yet: sign up first (every account gets a workspace).',
    )
    exitCode = 1
  }
} catch (error) {
  console.error(error instanceof Error && error.name === 'EnvError' ? error.message : error)
  exitCode = 1
} finally {
  await lifecycle.closeServerResources().catch(() => undefined)
}
process.exit(exitCode)
