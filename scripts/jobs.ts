// `npm run jobs -- list` shows each queue, the jobs that failed or wait for a retry, and emails given up on;
// `npm run jobs -- retry <job-id>` runs a failed job again, `cancel <job-id>` cancels one that has not finished, and
// `retry-email <outbox-id>` queues an email given up on again. With the embedded database, stop the server first:
// only one process can open it (the servers deliver what is queued once they run).
import { runOperatorTask } from './project.ts'

const usage = 'Usage: npm run jobs -- list | retry <job-id> | cancel <job-id> | retry-email <outbox-id>'
const [command, id, ...rest] = process.argv.slice(2)
/** pg-boss names its jobs by UUID. */
const jobId = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i
const valid =
  rest.length === 0 &&
  ((command === 'list' && !id) ||
    ((command === 'retry' || command === 'cancel') && id && jobId.test(id)) ||
    (command === 'retry-email' && id && /^\d+$/.test(id)))
if (!valid) {
  console.error(usage)
  process.exit(2)
}

await runOperatorTask(async (operatorTasks) => {
  const jobs = await operatorTasks.jobs()
  try {
    if (command === 'list') {
      const queues = await jobs.queues()
      if (queues.length === 0) console.log('No queue yet: a server makes them when it first starts.')
      else console.table(queues)
      const unsettled = await jobs.unsettledJobs()
      if (unsettled.length === 0) console.log('No job failed, waits for a retry or is running.')
      else console.table(unsettled.map(({ output: _, ...job }: { output: unknown }) => job))
      const dead = await jobs.deadEmails()
      if (dead.length > 0) {
        console.log('Emails given up on (npm run jobs -- retry-email <id>):')
        console.table(dead)
      }
      return 0
    }
    if (command === 'retry-email') {
      const retried = await jobs.retryEmail(Number(id))
      console.log(retried ? `Email ${id} is queued again.` : `No email given up on has the id ${id}.`)
      return retried ? 0 : 1
    }
    const done = command === 'retry' ? await jobs.retry(id) : await jobs.cancel(id)
    console.log(
      done
        ? `${command === 'retry' ? 'Retrying' : 'Cancelled'} job ${id}.`
        : `No job that can be ${command === 'retry' ? 'retried' : 'cancelled'} has the id ${id}.`,
    )
    return done ? 0 : 1
  } finally {
    await jobs.close()
  }
})
