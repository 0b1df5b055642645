// The soak's load: every flow (bench/soak/flows.ts) on its autocannon connections at once, about 200 in all, with
// the latency and the status of every answer recorded per kind of request.
import { createRequire } from 'node:module'
import type { Flow, Headers, Scenario } from './flows.ts'

/** Per kind of request: latencies of completed requests, and the answers that were not the expected status. */
export interface KindStats {
  kind: string
  latenciesMs: number[]
  statuses: Map<number, number>
  unexpected: number
  /** A few unexpected answers, for the report. */
  samples: string[]
}

export interface ScenarioStats {
  name: string
  connections: number
  errors: number
  timeouts: number
  /** Seconds into the load of the first timeout, when there was one. */
  firstTimeoutAt?: number
}

export interface TrafficResult {
  kinds: KindStats[]
  scenarios: ScenarioStats[]
}

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonClient {
  on(event: 'timeout', listener: () => void): void
  requestIterator: { currentRequest: { soakKind?: string; soakExpect?: number } }
}
interface AutocannonInstance extends PromiseLike<{ errors: number; timeouts: number }> {
  stop(): void
  on(event: 'response', listener: (client: AutocannonClient, status: number, bytes: number, ms: number) => void): void
}
type Autocannon = (options: Record<string, unknown>) => AutocannonInstance
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

/** Bounds the memory of a very long run: latencies past this many per kind are not kept. */
const maxSamplesPerKind = 5_000_000
/** A request slower than this counts as failed (a hang, not a slow answer). */
const requestTimeoutSeconds = 30

/** Runs every scenario at once for `seconds`, against 127.0.0.1:port only. */
export async function runTraffic(scenarios: Scenario[], port: number, seconds: number): Promise<TrafficResult> {
  const kinds = new Map<string, KindStats>()
  const statsOf = (kind: string) => {
    let stats = kinds.get(kind)
    if (!stats) {
      stats = { kind, latenciesMs: [], statuses: new Map(), unexpected: 0, samples: [] }
      kinds.set(kind, stats)
    }
    return stats
  }
  const startedAt = performance.now()
  const answeredClients = new WeakSet<AutocannonClient>()
  const firstTimeouts = new Map<string, number>()
  // People do not all arrive in the same millisecond: the flows start one after another over the first 10% of the run
  // (10 s at most) and all stop together. Started at once, 200 connections queued behind a cold server for 20-30 s.
  const rampSeconds = Math.min(10, seconds * 0.1)
  let stopped = false
  const running = scenarios.map((scenario, index) => {
    const delaySeconds = (rampSeconds * index) / scenarios.length
    const requests = scenario.steps.map((step) => ({
      method: step.method,
      path: step.path ?? '/',
      headers: step.headers,
      body: step.body,
      soakKind: step.kind,
      soakExpect: step.expect ?? 200,
      // autocannon calls setupRequest on every request when the key is there, even undefined.
      ...(step.build
        ? {
            setupRequest: (request: { headers: Headers }, flow: Flow) => {
              const built = step.build?.(flow)
              if (!built) return null
              return { ...request, ...built, headers: { ...request.headers, ...built.headers } }
            },
          }
        : {}),
      onResponse: (status: number, body: string, flow: Flow, headers: Record<string, string | string[]>) => {
        const expected = step.expect ?? 200
        if (status !== expected) {
          const stats = statsOf(step.kind)
          stats.unexpected++
          if (stats.samples.length < 3) stats.samples.push(`HTTP ${status}: ${body.slice(0, 300)}`)
        }
        step.onAnswer?.(status, body, flow, headers)
      },
    }))
    const start = () =>
      autocannon({
        // Loopback only: the soak never sends traffic anywhere else.
        url: `http://127.0.0.1:${port}`,
        connections: scenario.connections,
        connectionRate: scenario.rate,
        duration: seconds - delaySeconds,
        timeout: requestTimeoutSeconds,
        headers: scenario.headers,
        requests,
        setupClient: (client: AutocannonClient) =>
          client.on('timeout', () => {
            if (!firstTimeouts.has(scenario.name)) {
              firstTimeouts.set(scenario.name, (performance.now() - startedAt) / 1000)
            }
          }),
      })
    const holder: { instance?: AutocannonInstance } = {}
    const finished = new Promise<void>((resolve) => setTimeout(resolve, delaySeconds * 1000)).then(() => {
      if (stopped) return { errors: 0, timeouts: 0 }
      const instance = start()
      holder.instance = instance
      instance.on('response', (client, status, _bytes, ms) => {
        const request = client.requestIterator.currentRequest
        // A connection's first answer includes its connect and the server's first sight of the session: kept apart.
        const first = !answeredClients.has(client)
        answeredClients.add(client)
        const stats = statsOf(`${request.soakKind ?? 'other'}${first ? ' (first on a connection)' : ''}`)
        stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1)
        if (stats.latenciesMs.length < maxSamplesPerKind) stats.latenciesMs.push(ms)
      })
      return instance
    })
    return { scenario, holder, finished }
  })
  // autocannon stops at `duration`; this bounds the run even if a connection hangs past it.
  const hardStop = setTimeout(
    () => {
      stopped = true
      for (const { holder } of running) holder.instance?.stop()
    },
    (seconds + requestTimeoutSeconds + 30) * 1000,
  )
  try {
    const results = await Promise.all(running.map(({ finished }) => finished))
    return {
      kinds: [...kinds.values()],
      scenarios: running.map(({ scenario }, index) => ({
        name: scenario.name,
        connections: scenario.connections,
        errors: results[index]?.errors ?? 0,
        timeouts: results[index]?.timeouts ?? 0,
        firstTimeoutAt: firstTimeouts.get(scenario.name),
      })),
    }
  } finally {
    clearTimeout(hardStop)
  }
}
