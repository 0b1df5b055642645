// What both benchmarks share: autocannon runs with a warm-up, the table, and the ceiling they are compared with,
// which is Debian's nginx serving the landing page's exact bytes as a file (an independent server, never the app).

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { get as httpGet } from 'node:http'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startNginx, staticNginxSite } from '../tests/support/nginx.ts'

/** The part of autocannon's API used here (the package ships no types). */
interface Histogram {
  average: number
  p50: number
  p99: number
}
export interface AutocannonResult {
  requests: Histogram
  latency: Histogram
  non2xx: number
  errors: number
  timeouts: number
  mismatches: number
  statusCodeStats: Record<string, { count: number }>
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  stop(): void
}
type Autocannon = (options: {
  url: string
  connections: number
  duration: number
  timeout: number
  method?: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
}) => AutocannonInstance

export const connections = 50
// Long enough for V8 to optimise the render path; the first seconds after a start are not representative.
export const warmupSeconds = 5
export const requestTimeoutSeconds = 10

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

export function fail(message: string): never {
  console.error(`\n${message}`)
  process.exit(1)
}

/** BENCH_DURATION: seconds measured per target (default 10). */
export function durationSetting(): number {
  const duration = Number(process.env.BENCH_DURATION || 10)
  if (!Number.isFinite(duration) || duration <= 0) {
    fail(`BENCH_DURATION must be a positive number of seconds, got ${process.env.BENCH_DURATION}`)
  }
  return duration
}

/** One measured target: an absolute URL, with what autocannon sends. */
export interface Load {
  name: string
  url: string
  method?: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
}

export interface Measurement {
  name: string
  url: string
  result: AutocannonResult
  failures: number
  warmupFailures: number
  /** requests/s of nginx serving this row's very bytes, when measured; otherwise the table's landing ceiling. */
  ceilingRps?: number
}

let current: AutocannonInstance | undefined
const cleanups: (() => void)[] = []

/** Runs `cleanup` on exit and on Ctrl-C, after stopping the load that is running. */
export function onExit(cleanup: () => void): void {
  cleanups.push(cleanup)
}
const runCleanups = () => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
}
process.on('exit', runCleanups)
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    current?.stop()
    runCleanups()
    console.error(`\n${signal} received: stopped.`)
    process.exit(code)
  })
}

export async function runLoad(load: Load, duration: number): Promise<AutocannonResult> {
  const instance = autocannon({
    url: load.url,
    connections,
    duration,
    timeout: requestTimeoutSeconds,
    method: load.method ?? 'GET',
    body: load.body,
    headers: load.headers,
  })
  current = instance
  const result = await instance
  current = undefined
  return result
}

export function failuresOf(result: AutocannonResult): number {
  return result.non2xx + result.errors + result.mismatches
}

/** A warm-up that is not counted, then `duration` seconds measured. */
export async function measure(load: Load, duration: number): Promise<Measurement> {
  console.log(
    `- ${load.name}: ${load.method ?? 'GET'} ${load.url} (${warmupSeconds} s warm-up, ${duration} s measured)`,
  )
  const warmup = await runLoad(load, warmupSeconds)
  const result = await runLoad(load, duration)
  return { name: load.name, url: load.url, result, failures: failuresOf(result), warmupFailures: failuresOf(warmup) }
}

export function describeFailures(result: AutocannonResult): string {
  const codes = Object.entries(result.statusCodeStats)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count}× HTTP ${code}`)
  if (result.errors) codes.push(`${result.errors} errors (${result.timeouts} timeouts)`)
  if (result.mismatches) codes.push(`${result.mismatches} body mismatches`)
  return codes.join(', ')
}

/** Lists the rows with failed requests on stderr; true when there were any. */
export function reportFailures(rows: Measurement[]): boolean {
  const failed = rows.filter((row) => row.failures > 0 || row.warmupFailures > 0)
  if (failed.length === 0) return false
  console.error('\nSome requests failed, so these numbers do not measure working responses:')
  for (const row of failed) {
    if (row.failures > 0) console.error(`- ${row.name} (${row.url}): ${describeFailures(row.result)}`)
    if (row.warmupFailures > 0) console.error(`- ${row.name} (${row.url}): ${row.warmupFailures} failed in warm-up`)
  }
  return true
}

function formatMs(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2)
}

export function printTable(rows: Measurement[], ceilingRps: number): void {
  const header = ['target', 'requests/s (avg)', 'p50 ms', 'p99 ms', 'non-2xx+errors', 'vs nginx static']
  const rightAligned = [false, true, true, true, true, true]
  const cells = rows.map((row) => [
    row.name,
    Math.round(row.result.requests.average).toString(),
    formatMs(row.result.latency.p50),
    formatMs(row.result.latency.p99),
    String(row.failures),
    (row.ceilingRps ?? ceilingRps) > 0
      ? `${(row.result.requests.average / (row.ceilingRps ?? ceilingRps)).toFixed(2)}×`
      : 'n/a',
  ])
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  )
  const pad = (text: string, column: number) =>
    rightAligned[column] ? text.padStart(widths[column] ?? 0) : text.padEnd(widths[column] ?? 0)
  const line = (values: string[]) => `| ${values.map(pad).join(' | ')} |`
  const rule = `|${widths.map((width, column) => `${'-'.repeat(width + 1)}${rightAligned[column] ? ':' : '-'}`).join('|')}|`
  console.log([line(header), rule, ...cells.map(line)].join('\n'))
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** GET without compression, like autocannon, so byte counts compare what the benchmark receives. */
export async function getUncompressed(url: string): Promise<Response> {
  return fetch(url, {
    headers: { 'accept-encoding': 'identity' },
    signal: AbortSignal.timeout(requestTimeoutSeconds * 1000),
  })
}

/** What one answer of the app is, to be served again by nginx: its URL and the headers the benchmark sends. */
export interface CeilingSample {
  name: string
  url: string
  /** Sent when the sample is fetched and with every measured request (e.g. `accept-encoding: br`). */
  headers?: Record<string, string>
}

/** An answer's body exactly as it came over the wire: not decompressed, as autocannon receives it. */
export function rawBody(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers: { 'accept-encoding': 'identity', ...headers } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    request.setTimeout(requestTimeoutSeconds * 1000, () => request.destroy(new Error(`GET ${url} timed out`)))
    request.on('error', reject)
  })
}

/**
 * The ceilings: each sample's bytes (as the app sent them for its headers) written to a folder of their own and
 * served by Debian's nginx with one worker per core, checked to be the very same bytes before they are measured.
 * Returns one load per sample, named "<sample> from nginx (ceiling)", in the samples' order.
 */
export async function startNginxCopies(
  samples: CeilingSample[],
): Promise<{ loads: Load[]; bytes: number[]; stop(): Promise<void> }> {
  const bodies: Buffer[] = []
  for (const sample of samples) {
    const { status, body } = await rawBody(sample.url, sample.headers)
    if (status !== 200) throw new Error(`GET ${sample.url} answered ${status}; cannot build the ceiling.`)
    bodies.push(body)
  }
  const folder = mkdtempSync(path.join(tmpdir(), 'hatch-bench-nginx-'))
  // nginx's workers drop root's rights (to nobody) and must still read the files.
  chmodSync(folder, 0o755)
  const remove = () => rmSync(folder, { recursive: true, force: true })
  onExit(remove)
  const root = path.join(folder, 'site')
  const listenPort = await freePort()
  mkdirSync(root)
  for (const [index, body] of bodies.entries()) writeFileSync(path.join(root, `copy-${index}.bin`), body)
  const nginx = await startNginx({
    folder,
    site: staticNginxSite({ listenPort, root }),
    listenPort,
    readyPath: '/copy-0.bin',
    workers: 'auto',
  })
  // Stopped on any exit too (a failed row, Ctrl-C): an nginx left running would hold its port.
  onExit(() => void nginx.stop())
  const loads: Load[] = []
  for (const [index, sample] of samples.entries()) {
    const url = `${nginx.url}/copy-${index}.bin`
    const copy = (await rawBody(url, sample.headers)).body
    const body = bodies[index] as Buffer
    if (!copy.equals(body)) {
      await nginx.stop()
      throw new Error(
        `nginx serves ${copy.byteLength} bytes for ${sample.name}, the app ${body.byteLength}: the comparison would be meaningless.`,
      )
    }
    loads.push({ name: `${sample.name} from nginx (ceiling)`, url, headers: sample.headers })
  }
  return {
    loads,
    bytes: bodies.map((body) => body.byteLength),
    stop: async () => {
      await nginx.stop()
      remove()
    },
  }
}

/** The landing page's ceiling: nginx serving `pageUrl`'s uncompressed bytes. */
export async function startNginxCeiling(
  pageUrl: string,
): Promise<{ load: Load; bytes: number; stop(): Promise<void> }> {
  const copies = await startNginxCopies([{ name: 'landing bytes', url: pageUrl }])
  return { load: copies.loads[0] as Load, bytes: copies.bytes[0] as number, stop: copies.stop }
}
