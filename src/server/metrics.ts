import cluster from 'node:cluster'
import { timingSafeEqual } from 'node:crypto'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { count, desc, eq, max, ne } from 'drizzle-orm'
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { serverApps } from './apps.gen'
import { metricsAnswerMessage, metricsRequestMessage } from './cluster-messages'
import type { DatabaseConnection } from './db/client'
import { backupRuns, emailOutbox } from './db/schema'
import { getEnv } from './env'
import { summarizeQueues } from './jobs/operator'
import { observeJobRuns, runningQueue } from './jobs/queue'
import { log } from './log'

/**
 * Prometheus metrics at /api/metrics (issue 28), answered only to `Authorization: Bearer <METRICS_TOKEN>`. Under the
 * WEB_CONCURRENCY launcher every process counts its own requests and the launcher adds them up (scripts/cluster.ts),
 * so a scrape that reaches any process sees the whole server.
 */

export const metricsPath = '/api/metrics'

const registry = new Registry()
let started = false
let databaseConnection: DatabaseConnection | undefined

const httpRequests = new Counter({
  name: 'hatch_http_requests_total',
  help: 'Requests answered by the app, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
})

/** From a millisecond to ten seconds: both a cached page and a slow report land in a bucket of their own. */
const secondsBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const httpDuration = new Histogram({
  name: 'hatch_http_request_duration_seconds',
  help: 'Time from a request reaching the app to its answer being ready (streamed bodies may take longer).',
  labelNames: ['method', 'route'] as const,
  buckets: secondsBuckets,
  registers: [registry],
})

const procedureDuration = new Histogram({
  name: 'hatch_trpc_procedure_duration_seconds',
  help: 'tRPC procedure run time, by procedure and outcome (ok or the error code).',
  labelNames: ['procedure', 'outcome'] as const,
  buckets: secondsBuckets,
  registers: [registry],
})

const jobRuns = new Counter({
  name: 'hatch_job_runs_total',
  help: 'Job attempts run by this server, by job and outcome (completed, retrying, failed for good).',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
})

// The gauges below read the shared database: every process would read the same numbers, so the launcher keeps one.
new Gauge({
  name: 'hatch_job_queue_jobs',
  help: 'Jobs in the queue by job and state (queued, active, deferred, failed).',
  labelNames: ['queue', 'state'] as const,
  aggregator: 'first',
  registers: [registry],
  async collect() {
    const boss = runningQueue()
    if (!boss) return
    this.reset()
    for (const queue of await summarizeQueues(boss)) {
      this.set({ queue: queue.name, state: 'queued' }, queue.queued)
      this.set({ queue: queue.name, state: 'active' }, queue.active)
      this.set({ queue: queue.name, state: 'deferred' }, queue.deferred)
      this.set({ queue: queue.name, state: 'failed' }, queue.failed)
    }
  },
})

new Gauge({
  name: 'hatch_email_outbox_messages',
  help: 'Emails in the outbox by status (held, queued, sent, dead).',
  labelNames: ['status'] as const,
  aggregator: 'first',
  registers: [registry],
  async collect() {
    if (!databaseConnection) return
    const rows = await databaseConnection.db
      .select({ status: emailOutbox.status, messages: count() })
      .from(emailOutbox)
      .groupBy(emailOutbox.status)
    this.reset()
    for (const status of ['held', 'queued', 'sent', 'dead']) {
      this.set({ status }, rows.find((row) => row.status === status)?.messages ?? 0)
    }
  },
})

new Gauge({
  name: 'hatch_database_pool_clients',
  help: 'PostgreSQL connections of this process by state (total, idle, waiting requests); none on PGlite.',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const pool = databaseConnection?.pool
    if (!pool) return
    this.set({ state: 'total' }, pool.totalCount)
    this.set({ state: 'idle' }, pool.idleCount)
    this.set({ state: 'waiting' }, pool.waitingCount)
  },
})

new Gauge({
  name: 'hatch_backup_age_seconds',
  help: 'Seconds since the latest backup that succeeded finished (absent until one has); alert when it passes a day and a half.',
  aggregator: 'first',
  registers: [registry],
  async collect() {
    if (!databaseConnection) return
    const [row] = await databaseConnection.db
      .select({ at: max(backupRuns.finishedAt) })
      .from(backupRuns)
      .where(eq(backupRuns.status, 'succeeded'))
    this.reset()
    if (row?.at) this.set((Date.now() - row.at.getTime()) / 1000)
  },
})

new Gauge({
  name: 'hatch_backup_last_run_failed',
  help: 'Whether the latest backup attempt failed (1) or succeeded (0); absent until one has run.',
  aggregator: 'first',
  registers: [registry],
  async collect() {
    if (!databaseConnection) return
    const [row] = await databaseConnection.db
      .select({ status: backupRuns.status })
      .from(backupRuns)
      .where(ne(backupRuns.status, 'running'))
      .orderBy(desc(backupRuns.id))
      .limit(1)
    this.reset()
    if (row) this.set(row.status === 'failed' ? 1 : 0)
  },
})

const eventLoopDelay = monitorEventLoopDelay({ resolution: 20 })
new Gauge({
  name: 'hatch_event_loop_delay_p99_seconds',
  help: "The 99th percentile of this process's event-loop delay since the last scrape.",
  aggregator: 'max',
  registers: [registry],
  collect() {
    this.set(eventLoopDelay.percentile(99) / 1e9)
    eventLoopDelay.reset()
  },
})

/** Starts measuring (once): Node's own metrics (memory, event loop, GC, handles) and the app's. */
export function startMetrics(connection: DatabaseConnection): void {
  databaseConnection = connection
  if (started) return
  started = true
  collectDefaultMetrics({ register: registry, prefix: 'hatch_' })
  eventLoopDelay.enable()
  observeJobRuns((job, outcome) => jobRuns.inc({ job, outcome }))
  if (cluster.isWorker) {
    // Answers the launcher's requests for this process's numbers (prom-client's cluster protocol).
    new AggregatorRegistry()
    AggregatorRegistry.setRegistries(registry)
  }
}

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const growingSections = new Set(serverApps.flatMap((app) => app.growingSections ?? []))

/** A path segment kept in a route label: a word, never an id, a token or anything a client made up with digits. */
const routeWord = /^[a-z][a-z.-]{0,40}$/

/**
 * The route a request is counted under. Labels must stay few whatever clients send: unknown paths are one label, ids
 * and tokens become `:param`, the language prefix `:locale`, every docs page one label.
 */
export function routeLabelOf(pathname: string, status: number): string {
  if (status === 404) return '(not found)'
  const segments = pathname.split('/').filter(Boolean)
  if (segments[0] === 'api' && segments[1] === 'trpc') return '/api/trpc'
  const localized = segments[0] === 'en' || segments[0] === 'zh'
  const rest = localized ? segments.slice(1) : segments
  // One series per section, not per page: docs pages and apps' growing sections (posts) come with every release.
  if (rest[0] === 'docs' || (rest.length > 1 && growingSections.has(rest[0] ?? ''))) {
    return `${localized ? '/:locale' : ''}/${rest[0]}/*`
  }
  const words = rest.slice(0, 4).map((segment) => (routeWord.test(segment) ? segment : ':param'))
  if (rest.length > 4) words.push('*')
  return `${localized ? '/:locale' : ''}/${words.join('/')}`
}

/** Counts one answered request. */
export function recordRequest(method: string, pathname: string, status: number, seconds: number): void {
  recordRequestOnRoute(method, routeLabelOf(pathname, status), status, seconds)
}

/** Counts one answered request whose route label is already known (a kept page's, worked out once). */
export function recordRequestOnRoute(method: string, route: string, status: number, seconds: number): void {
  const knownMethod = methods.has(method) ? method : 'OTHER'
  httpRequests.inc({ method: knownMethod, route, status: String(status) })
  httpDuration.observe({ method: knownMethod, route }, seconds)
}

export function recordProcedure(procedure: string, outcome: string, seconds: number): void {
  procedureDuration.observe({ procedure, outcome }, seconds)
}

/** Whether the request carries the metrics token (compared in constant time). */
function authorized(request: Request, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
  const expected = Buffer.from(token)
  const actual = Buffer.from(given)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

let pendingClusterScrapes = 0
const clusterScrapes = new Map<number, (text: string) => void>()

/** Asks the launcher for the whole server's metrics (every process's, added up) and resolves with its answer. */
function clusterMetrics(): Promise<string> {
  const id = ++pendingClusterScrapes
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      clusterScrapes.delete(id)
      reject(new Error('the launcher did not answer with the metrics'))
    }, 6000)
    clusterScrapes.set(id, (text) => {
      clearTimeout(timeout)
      clusterScrapes.delete(id)
      resolve(text)
    })
    process.send?.({ type: metricsRequestMessage, id })
  })
}

if (cluster.isWorker) {
  process.on('message', (message: { type?: string; id?: number; text?: string }) => {
    if (message?.type === metricsAnswerMessage && typeof message.id === 'number') {
      clusterScrapes.get(message.id)?.(message.text ?? '')
    }
  })
}

/** GET /api/metrics: 404 without METRICS_TOKEN (nothing to find), 401 with a wrong token, else the text format. */
export async function metricsAnswer(request: Request, token = getEnv().METRICS_TOKEN): Promise<Response> {
  if (!token) return new Response('Not Found', { status: 404 })
  if (!authorized(request, token)) {
    return new Response('Unauthorized', { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } })
  }
  try {
    const text = cluster.isWorker ? await clusterMetrics() : await registry.metrics()
    return new Response(text, { headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' } })
  } catch (error) {
    log().error({ err: error }, 'metrics could not be gathered')
    return new Response('Metrics unavailable', { status: 503, headers: { 'Retry-After': '5' } })
  }
}
