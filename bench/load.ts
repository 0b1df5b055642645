// What both benchmarks share: autocannon runs with a warm-up, the table, and the ceiling they are compared with,
// which is Debian's nginx serving the landing page's exact bytes as a file (an independent server, never the app).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
    ceilingRps > 0 ? `${(row.result.requests.average / ceilingRps).toFixed(2)}×` : 'n/a',
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

/**
 * The ceiling: `pageUrl`'s bytes (uncompressed, as autocannon receives them) written to a folder of its own and
 * served by nginx with one worker per core; checked to be the very same bytes before it is measured.
 */
export async function startNginxCeiling(
  pageUrl: string,
): Promise<{ load: Load; bytes: number; stop(): Promise<void> }> {
  const page = await getUncompressed(pageUrl)
  const body = Buffer.from(await page.arrayBuffer())
  if (page.status !== 200) throw new Error(`GET ${pageUrl} answered ${page.status}; cannot build the ceiling.`)
  if (page.headers.get('content-encoding')) throw new Error(`GET ${pageUrl} came back compressed; expected identity.`)
  const folder = mkdtempSync(path.join(tmpdir(), 'hatch-bench-nginx-'))
  // nginx's workers drop root's rights (to nobody) and must still read the page.
  chmodSync(folder, 0o755)
  const remove = () => rmSync(folder, { recursive: true, force: true })
  onExit(remove)
  const root = path.join(folder, 'site')
  const listenPort = await freePort()
  mkdirSync(root)
  writeFileSync(path.join(root, 'landing.html'), body)
  const nginx = await startNginx({
    folder,
    site: staticNginxSite({ listenPort, root }),
    listenPort,
    readyPath: '/landing.html',
    workers: 'auto',
  })
  // Stopped on any exit too (a failed row, Ctrl-C): an nginx left running would hold its port.
  onExit(() => void nginx.stop())
  const url = `${nginx.url}/landing.html`
  const copy = Buffer.from(await (await getUncompressed(url)).arrayBuffer())
  if (!copy.equals(body)) {
    await nginx.stop()
    throw new Error(
      `nginx serves ${copy.byteLength} bytes, the page was ${body.byteLength}: the comparison would be meaningless.`,
    )
  }
  return {
    load: { name: 'landing bytes from nginx (ceiling)', url },
    bytes: body.byteLength,
    stop: async () => {
      await nginx.stop()
      remove()
    },
  }
}
