import cluster from 'node:cluster'
import { enableCompileCache } from 'node:module'
import { assertSupportedNode, buildIsStale, restartWithServerMemorySettings } from './project.ts'

assertSupportedNode()
// The restart starts the process over: it comes before the server's own modules load, which would be thrown away.
if (cluster.isPrimary) restartWithServerMemorySettings()
// V8 keeps the compiled scripts, with their types already stripped, and the app (in the system's temporary folder):
// a restart skips most of the parsing and compiling, a shorter cold start.
enableCompileCache()
const { processCount } = await import('./process-count.ts')
const processes = processCount(process.env)
if ('error' in processes) {
  console.error(processes.error)
  console.error('The server did not start.')
  process.exit(1)
}
if (cluster.isPrimary && buildIsStale()) {
  // Imported only when needed: a deployment that ships a build runs without the build tools.
  await (await import('./build.ts')).buildWhenStale(() =>
    console.log('Building the app (sources changed or no build yet)…'),
  )
}
// The launcher of several processes and a server each load only their own modules.
if (cluster.isPrimary && processes.count > 1) (await import('./cluster.ts')).runCluster(processes.count)
else await (await import('./serve.ts')).startProductionServer()
