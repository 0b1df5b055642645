import { assertSupportedNode, buildIsStale, restartWithServerMemorySettings } from './project.ts'
import { startProductionServer } from './serve.ts'

assertSupportedNode()
restartWithServerMemorySettings()
if (buildIsStale()) {
  console.log('Building the app (sources changed or no build yet)…')
  // Imported only when needed: a deployment that ships a build runs without the build tools.
  await (await import('./build.ts')).build()
}
await startProductionServer()
