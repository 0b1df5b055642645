import cluster, { type Worker } from 'node:cluster'
import pino from 'pino'
import { AggregatorRegistry } from 'prom-client'
import { listeningMessage, metricsAnswerMessage, metricsRequestMessage } from '../src/server/cluster-messages.ts'
import { closingAllowanceMs, launcherAllowanceMs, shutdownTimeoutMsOf } from './shutdown-deadline.ts'

/** The launcher's own lines, as JSON like the app's (src/server/log.ts). */
const launcherLog = pino({
  // LOG_LEVEL itself is validated by each app process, which stops the launcher when it is wrong.
  level:
    process.env.LOG_LEVEL === 'silent' || pino.levels.values[process.env.LOG_LEVEL ?? '']
      ? process.env.LOG_LEVEL
      : 'info',
  base: { pid: process.pid, component: 'launcher' },
  formatters: { level: (label) => ({ level: label }) },
  timestamp: pino.stdTimeFunctions.isoTime,
})

/**
 * Runs `count` copies of the server, sharing its port (the operating system hands each connection to one). A copy
 * that dies is started again; SIGTERM or SIGINT is passed to every copy, each finishes its requests as one server
 * would, and the launcher exits when they all have.
 */
export function runCluster(count: number): void {
  let stopping = false
  let stoppedUncleanly = false
  const metrics = new AggregatorRegistry()
  let othersStarted = false
  /** Processes that have listened: only those are started again when they die. */
  const listened = new Set<Worker>()
  const start = () => {
    const worker = cluster.fork()
    worker.on('message', (message: unknown) => {
      const asked = message as { type?: unknown; id?: unknown } | null
      if (asked?.type === metricsRequestMessage) {
        metrics.clusterMetrics().then(
          (text) => worker.send({ type: metricsAnswerMessage, id: asked.id, text }),
          (error: Error) => launcherLog.error({ err: error }, 'the processes did not all report their metrics'),
        )
        return
      }
      if (message !== listeningMessage) return
      // The first process starts alone: it applies the migrations and, without BETTER_AUTH_SECRET, writes the secret
      // the others then read (two writing at once could each keep a different one).
      if (!othersStarted) {
        othersStarted = true
        for (let index = 1; index < count; index++) start()
      }
      listened.add(worker)
    })
    return worker
  }
  start()
  cluster.on('exit', (worker: Worker, code, signal) => {
    const hadListened = listened.delete(worker)
    if (stopping) {
      // A server that did not stop cleanly (its shutdown deadline, a resource that failed to close) says so here too;
      // one still starting simply ends.
      if (hadListened && code !== 0) stoppedUncleanly = true
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(stoppedUncleanly ? 1 : 0)
      return
    }
    if (!hadListened && !othersStarted) {
      // The first could not start (a bad variable, the database down): so would every other; the launcher stops.
      stopping = true
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM')
      process.exit(code || 1)
    }
    if (!hadListened) {
      // A later one met a passing fault (its database connection cut while it started) while the others serve.
      launcherLog.error(`App process ${worker.process.pid} could not start (exit code ${code}); trying again in 2 s.`)
      setTimeout(() => {
        if (!stopping) start()
      }, 2000).unref()
      return
    }
    launcherLog.error(`App process ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another.`)
    start()
  })
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal)
    // Each process ends itself by its own deadline; one that is stuck past it (paused, or blocking its event loop)
    // is killed, so the launcher, and the deploy waiting on it, still ends in time.
    const bound = shutdownTimeoutMsOf(process.env) + closingAllowanceMs + launcherAllowanceMs
    setTimeout(() => {
      const stuck = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined)
      launcherLog.error(`App processes still running ${bound} ms after ${signal} (${stuck.length}); killing them.`)
      for (const worker of stuck) worker.process.kill('SIGKILL')
      process.exit(1)
    }, bound).unref()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  launcherLog.info(`Hatch runs ${count} app processes (WEB_CONCURRENCY).`)
}
