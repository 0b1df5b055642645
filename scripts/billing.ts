// `npm run billing -- replay <event-id>` applies a stored payment event again (after a fix, or to repair a mistake);
// `npm run billing -- reconcile` re-reads every open subscription from the payment provider and repairs what drifted
// (a webhook that never arrived). With the embedded database, stop the server first: only one process can open it.
import { pathToFileURL } from 'node:url'
import { assertSupportedNode, buildIsStale, serverBundle } from './project.ts'

const usage = 'Usage: npm run billing -- replay <event-id> | npm run billing -- reconcile'
const [command, eventId] = process.argv.slice(2)
if (!((command === 'replay' && eventId) || (command === 'reconcile' && !eventId))) {
  console.error(usage)
  process.exit(2)
}

assertSupportedNode()
if (buildIsStale()) await (await import('./build.ts')).build()
const { lifecycle, operatorTasks } = await import(pathToFileURL(serverBundle).href)
let exitCode = 0
try {
  await lifecycle.ensureServerReady()
  if (command === 'replay') {
    const result = await operatorTasks.replayBillingEvent(eventId)
    if (result.replayed) console.log(`Replayed ${result.provider} event ${eventId} (${result.type}).`)
    else {
      console.error(`No stored payment event has the id ${eventId}.`)
      exitCode = 1
    }
  } else {
    const { provider, drifted } = await operatorTasks.reconcileBilling()
    console.log(
      drifted.length === 0
        ? `Every open ${provider} subscription matches the provider.`
        : `Repaired ${drifted.length} ${provider} subscription(s): ${drifted.join(', ')}`,
    )
  }
} catch (error) {
  console.error(error instanceof Error && error.name === 'EnvError' ? error.message : error)
  exitCode = 1
} finally {
  await lifecycle.closeServerResources().catch(() => undefined)
}
process.exit(exitCode)
