import cluster from 'node:cluster'
import { enableCompileCache } from 'node:module'
import {
  assertSupportedNode,
  buildIsStale,
  freshBuildMark,
  restartProcess,
  restartWithServerMemorySettings,
} from './project.ts'

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
// Set by the restart below, so that a build that still looks stale (a source dated in the future) is not run again.
const freshlyBuilt = process.env[freshBuildMark] === '1'
delete process.env[freshBuildMark]
if (cluster.isPrimary && !freshlyBuilt && buildIsStale()) {
  // Imported only when needed: a deployment that ships a build runs without the build tools.
  const built = await (await import('./build.ts')).buildWhenStale(() =>
    console.log('Building the app (sources changed or no build yet)…'),
  )
  // The server starts over on the new build: the build's garbage (every asset compressed in this process) would
  // otherwise stay with it, in heap pages V8 keeps for reuse. A server started this way held 900 MB after the HTTP
  // bench, against 500 MB for one started on an existing build.
  if (built) restartProcess({ [freshBuildMark]: '1' })
}
// The launcher of several processes and a server each load only their own modules.
if (cluster.isPrimary && processes.count > 1) (await import('./cluster.ts')).runCluster(processes.count)
else await (await import('./serve.ts')).startProductionServer()
