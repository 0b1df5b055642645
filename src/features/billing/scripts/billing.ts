// `npm run billing -- replay <event-id>` applies a stored payment event again (after a fix, or to repair a mistake);
// `npm run billing -- reconcile` re-reads every open subscription from the payment provider and repairs what drifted
// (a webhook that never arrived). With the embedded database, stop the server first: only one process can open it.
import { runOperatorTask } from '../../../../scripts/project.ts'
import type { reconcileBilling, replayBillingEvent } from '../server/operator-tasks'

const usage = 'Usage: npm run billing -- replay <event-id> | npm run billing -- reconcile'
const [command, eventId] = process.argv.slice(2)
if (!((command === 'replay' && eventId) || (command === 'reconcile' && !eventId))) {
  console.error(usage)
  process.exit(2)
}

await runOperatorTask(async (operatorTasks) => {
  if (command === 'replay') {
    const result = (await operatorTasks.appTask('billing', 'replay', eventId)) as Awaited<
      ReturnType<typeof replayBillingEvent>
    >
    if (!result.replayed) {
      console.error(`No stored payment event has the id ${eventId}.`)
      return 1
    }
    console.log(`Replayed ${result.provider} event ${eventId} (${result.type}).`)
    return 0
  }
  const { provider, drifted } = (await operatorTasks.appTask('billing', 'reconcile')) as Awaited<
    ReturnType<typeof reconcileBilling>
  >
  console.log(
    drifted.length === 0
      ? `Every open ${provider} subscription matches the provider.`
      : `Repaired ${drifted.length} ${provider} subscription(s): ${drifted.join(', ')}`,
  )
  return 0
})
