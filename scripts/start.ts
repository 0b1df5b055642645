import cluster from 'node:cluster'
import { processCount, runCluster } from './cluster.ts'
import { assertSupportedNode, buildIsStale, restartWithServerMemorySettings } from './project.ts'
import { startProductionServer } from './serve.ts'

assertSupportedNode()
const processes = processCount(process.env)
if ('error' in processes) {
  console.error(processes.error)
  console.error('The server did not start.')
  process.exit(1)
}
if (cluster.isPrimary) {
  restartWithServerMemorySettings()
  if (buildIsStale()) {
    // Imported only when needed: a deployment that ships a build runs without the build tools.
    await (await import('./build.ts')).buildWhenStale(() =>
      console.log('Building the app (sources changed or no build yet)…'),
    )
  }
}
if (cluster.isPrimary && processes.count > 1) runCluster(processes.count)
else await startProductionServer()
