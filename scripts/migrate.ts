import { pathToFileURL } from 'node:url'
import { assertSupportedNode, buildIsStale, serverBundle } from './project.ts'

// Applies pending migrations with the same code the server runs at start-up. With the embedded database,
// stop the server first: only one process can open the data folder.
assertSupportedNode()
if (buildIsStale()) await (await import('./build.ts')).buildWhenStale()
const { lifecycle } = await import(pathToFileURL(serverBundle).href)
try {
  await lifecycle.ensureServerReady({ jobs: 'none' })
  console.log('Migrations are up to date.')
  await lifecycle.closeServerResources()
} catch (error) {
  console.error(error instanceof Error && error.name === 'EnvError' ? error.message : error)
  process.exit(1)
}
