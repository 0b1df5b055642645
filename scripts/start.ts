import { build } from './build.ts'
import { assertSupportedNode, buildIsStale } from './project.ts'
import { startProductionServer } from './serve.ts'

assertSupportedNode()
if (buildIsStale()) {
  console.log('Building the app (sources changed or no build yet)…')
  await build()
}
await startProductionServer()
