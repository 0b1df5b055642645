// What the benchmarks share: Debian's wrk driving each row (a warm-up, then the measured seconds), the table, and the
// ceilings they are compared with, which are Debian's nginx serving the app's exact bytes as files (an independent
// server, never the app). wrk runs in C on its own threads: on these 2-core machines it drives nginx near 40k
// requests/s, where one Node thread (autocannon) tops out near 20-25k and measured itself instead (issue 55). Each run
// also shows the generator's own headroom (generatorCheck).

import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { get as httpGet } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startNginx, staticNginxSite } from '../tests/support/nginx.ts'

export const wrkBinary = '/usr/bin/wrk'
export const connections = 50
/** wrk's threads: one per core, as nginx's workers; the server measured shares the machine with them. */
export const generatorThreads = 2
// Long enough for V8 to optimise the render path; the first seconds after a start are not representative.
export const warmupSeconds = 5
export const requestTimeoutSeconds = 10

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

/** One measured target: an absolute URL, with what wrk sends. */
export interface Load {
  name: string
  url: string
  method?: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
  /** Open connections (default `connections`): 10 for "ten people at once". */
  connections?: number
  /** Cookies taken in turn, one per request (several people signed in); overrides a cookie in `headers`. */
  cookies?: string[]
  /**
   * Count every answer's status (wrk then hands each answer to Lua, which costs it throughput: kept for rows far below
   * the generator's limit). Without it only answers of 400 and above count as failures, and a redirect passes.
   */
  countStatuses?: boolean
}

export interface LoadResult {
  requests: number
  requestsPerSecond: number
  latencyMs: { p50: number; p95: number; p99: number; max: number }
  errors: { connect: number; read: number; write: number; timeout: number }
  /** Answers of 400 and above (wrk's own count). */
  statusErrors: number
  /** Every status and its count, when the load asked for them (`countStatuses`). */
  statuses?: Record<string, number>
  /**
   * How far the generator was from its own limit: its threads' time over the CPU time wrk used. 3 means wrk was busy a
   * third of the time it could have been, so it could have sent three times as many requests.
   */
  generatorHeadroom: number
}

export interface Measurement {
  name: string
  url: string
  result: LoadResult
  failures: number
  warmupFailures: number
  /** requests/s of nginx serving this row's very bytes, when measured; otherwise the table's landing ceiling. */
  ceilingRps?: number
  /** What the row must reach, and whether it did (the goals of issue 55). */
  goal?: { text: string; met: boolean }
}

const running = new Set<ReturnType<typeof spawn>>()
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
    for (const child of running) child.kill('SIGTERM')
    runCleanups()
    console.error(`\n${signal} received: stopped.`)
    process.exit(code)
  })
}

/** A Lua long string: no escaping, whatever the text holds. */
function luaString(text: string): string {
  let level = 0
  while (text.includes(`]${'='.repeat(level)}]`)) level++
  const equals = '='.repeat(level)
  return `[${equals}[${text}]${equals}]`
}

/**
 * The script wrk runs for a load: the method, body and headers; cookies in turn when there are several; the status
 * count when asked; and a last line of JSON with what the C side measured (latency in microseconds).
 */
function wrkScript(load: Load): string {
  const lines = [`wrk.method = ${luaString(load.method ?? 'GET')}`]
  if (load.body !== undefined) lines.push(`wrk.body = ${luaString(load.body)}`)
  for (const [name, value] of Object.entries(load.headers ?? {})) {
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`)
  }
  lines.push(
    'local threads = {}',
    'local index = 0',
    'function setup(thread)',
    '  index = index + 1',
    '  thread:set("turn", index)',
    '  table.insert(threads, thread)',
    'end',
  )
  if (load.cookies?.length) {
    lines.push(
      `local cookies = {${load.cookies.map(luaString).join(', ')}}`,
      'function request()',
      '  turn = turn + 1',
      '  wrk.headers["cookie"] = cookies[turn % #cookies + 1]',
      '  return wrk.format()',
      'end',
    )
  }
  if (load.countStatuses) {
    lines.push(
      'statuses = {}',
      'function response(status, headers, body)',
      '  statuses[status] = (statuses[status] or 0) + 1',
      'end',
    )
  }
  lines.push(
    'function done(summary, latency, requests)',
    '  local counts = {}',
    '  for _, thread in ipairs(threads) do',
    '    local each = thread:get("statuses")',
    '    if each then for status, count in pairs(each) do',
    '      counts[#counts + 1] = string.format("\\"%d\\":%d", status, count)',
    '    end end',
    '  end',
    '  local e = summary.errors',
    '  io.write(string.format("WRK_RESULT {\\"requests\\":%d,\\"durationUs\\":%d,\\"connect\\":%d,\\"read\\":%d," ..',
    '    "\\"write\\":%d,\\"timeout\\":%d,\\"status\\":%d,\\"p50\\":%d,\\"p95\\":%d,\\"p99\\":%d,\\"max\\":%d," ..',
    '    "\\"statuses\\":[%s]}\\n", summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout,',
    '    e.status, latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max,',
    '    table.concat(counts, ",")))',
    'end',
  )
  return `${lines.join('\n')}\n`
}

let scriptFolder: string | undefined
function scriptFile(load: Load): string {
  if (!scriptFolder) {
    const folder = mkdtempSync(path.join(tmpdir(), 'hatch-bench-wrk-'))
    scriptFolder = folder
    onExit(() => rmSync(folder, { recursive: true, force: true }))
  }
  const file = path.join(scriptFolder, `load-${Date.now()}-${Math.random().toString(36).slice(2)}.lua`)
  writeFileSync(file, wrkScript(load))
  return file
}

/**
 * wrk connects to the address it is given: `localhost` becomes 127.0.0.1 (nginx and the app listen there; wrk would
 * try ::1 first on some machines), while the Host header keeps the name the app's APP_URL has.
 */
function wrkTarget(url: string): { url: string; host: string } {
  const parsed = new URL(url)
  const host = parsed.host
  if (parsed.hostname === 'localhost') parsed.hostname = '127.0.0.1'
  return { url: parsed.href, host }
}

/** The line the script's done() writes (latency in microseconds). */
interface WrkReport {
  requests: number
  durationUs: number
  connect: number
  read: number
  write: number
  timeout: number
  status: number
  p50: number
  p95: number
  p99: number
  max: number
  statuses: Record<string, number>
}

export async function runLoad(load: Load, duration: number): Promise<LoadResult> {
  const target = wrkTarget(load.url)
  // "Host" as wrk spells it: wrk adds its own unless the table has that very key, and two Host headers are a 400.
  const withHost = { ...load, headers: { Host: target.host, ...load.headers } }
  // wrk gives each thread at least one connection: one person at a time is one thread.
  const open = load.connections ?? connections
  const threads = Math.min(generatorThreads, open)
  const args = [
    `-t${threads}`,
    `-c${open}`,
    `-d${duration}s`,
    `--timeout`,
    `${requestTimeoutSeconds}s`,
    '-s',
    scriptFile(withHost),
    target.url,
  ]
  // Through bash, whose `times` then prints the CPU time wrk used (its children's user and system time): the
  // generator's own cost, from which its headroom follows.
  const child = spawn('bash', ['-c', `"$0" "$@"; code=$?; times; exit $code`, wrkBinary, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk
  })
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', resolve)
  }).catch((error: unknown) =>
    fail(`wrk could not run (${error instanceof Error ? error.message : error}): apt-get install -y wrk`),
  )
  running.delete(child)
  const line = /^WRK_RESULT (.*)$/m.exec(output)?.[1]
  if (code !== 0 || !line) fail(`wrk ${args.join(' ')} ended with code ${code}:\n${output}`)
  const raw = JSON.parse(line.replace(/"statuses":\[(.*)\]/, '"statuses":{$1}')) as WrkReport
  const seconds = raw.durationUs / 1e6
  // `times` prints the shell's own line, then its children's: "0m1.234s 0m0.567s".
  const childTimes = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm
  const cpu = [...output.matchAll(childTimes)].at(-1)
  const generatorCpuSeconds = cpu
    ? Number(cpu[1]) * 60 + Number(cpu[2]) + Number(cpu[3]) * 60 + Number(cpu[4])
    : Number.NaN
  return {
    requests: raw.requests,
    requestsPerSecond: raw.requests / seconds,
    latencyMs: { p50: raw.p50 / 1000, p95: raw.p95 / 1000, p99: raw.p99 / 1000, max: raw.max / 1000 },
    errors: { connect: raw.connect, read: raw.read, write: raw.write, timeout: raw.timeout },
    statusErrors: raw.status,
    statuses: load.countStatuses ? raw.statuses : undefined,
    generatorHeadroom: (threads * seconds) / generatorCpuSeconds,
  }
}

/** Answers that were not what the row measures: errors, answers of 400 and above, and (when counted) any but 2xx. */
export function failuresOf(result: LoadResult): number {
  const { connect, read, write, timeout } = result.errors
  const notSuccessful = result.statuses
    ? Object.entries(result.statuses)
        .filter(([status]) => !status.startsWith('2'))
        .reduce((sum, [, count]) => sum + count, 0)
    : result.statusErrors
  return connect + read + write + timeout + notSuccessful
}

/** A warm-up that is not counted, then `duration` seconds measured. */
export async function measure(load: Load, duration: number): Promise<Measurement> {
  const sessions = load.cookies?.length ?? 0
  const people = sessions > 1 ? `, ${sessions} sessions in turn` : sessions === 1 ? ', one session' : ''
  const open = load.connections ?? connections
  console.log(
    `- ${load.name}: ${load.method ?? 'GET'} ${load.url} (${open} connection${open === 1 ? '' : 's'}${people}; ` +
      `${warmupSeconds} s warm-up, ${duration} s measured)`,
  )
  const warmup = await runLoad(load, warmupSeconds)
  const result = await runLoad(load, duration)
  return { name: load.name, url: load.url, result, failures: failuresOf(result), warmupFailures: failuresOf(warmup) }
}

export function describeFailures(result: LoadResult): string {
  const parts = result.statuses
    ? Object.entries(result.statuses)
        .filter(([status]) => !status.startsWith('2'))
        .map(([status, count]) => `${count}× HTTP ${status}`)
    : result.statusErrors
      ? [`${result.statusErrors} answers of 400 or above`]
      : []
  const { connect, read, write, timeout } = result.errors
  if (connect + read + write + timeout) {
    parts.push(`errors: ${connect} connect, ${read} read, ${write} write, ${timeout} timeouts`)
  }
  return parts.join(', ')
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
  return value >= 100 ? value.toFixed(0) : value.toFixed(1)
}

/** A Markdown table, right-aligned where a column holds numbers. */
export function markdownTable(header: string[], rightAligned: boolean[], cells: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  )
  const pad = (text: string, column: number) =>
    rightAligned[column] ? text.padStart(widths[column] ?? 0) : text.padEnd(widths[column] ?? 0)
  const line = (values: string[]) => `| ${values.map(pad).join(' | ')} |`
  const rule = `|${widths.map((width, column) => `${'-'.repeat(width + 1)}${rightAligned[column] ? ':' : '-'}`).join('|')}|`
  return [line(header), rule, ...cells.map(line)].join('\n')
}

export function printTable(rows: Measurement[], ceilingRps: number): void {
  const withGoals = rows.some((row) => row.goal)
  const header = ['target', 'requests/s', 'p50 ms', 'p95 ms', 'p99 ms', 'failed', 'vs nginx']
  if (withGoals) header.push('goal', 'met')
  const cells = rows.map((row) => {
    const ceiling = row.ceilingRps ?? ceilingRps
    const line = [
      row.name,
      Math.round(row.result.requestsPerSecond).toString(),
      formatMs(row.result.latencyMs.p50),
      formatMs(row.result.latencyMs.p95),
      formatMs(row.result.latencyMs.p99),
      String(row.failures),
      ceiling > 0 ? `${(row.result.requestsPerSecond / ceiling).toFixed(2)}×` : 'n/a',
    ]
    if (withGoals) line.push(row.goal?.text ?? '', row.goal ? (row.goal.met ? 'yes' : 'NO') : '')
    return line
  })
  console.log(markdownTable(header, [false, true, true, true, true, true, true, false, false], cells))
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

/** GET without compression, as wrk asks, so byte counts compare what the benchmark receives. */
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

/** An answer's body exactly as it came over the wire: not decompressed, as wrk receives it. */
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

/**
 * The generator's headroom on the fastest row (a ceiling): wrk's threads' time over the CPU time it used there. Above
 * 1.5 its threads waited more than they worked, so the row measured the server, not the generator.
 */
export function describeHeadroom(rows: Measurement[]): string {
  const fastest = rows.reduce((best, row) =>
    row.result.requestsPerSecond > best.result.requestsPerSecond ? row : best,
  )
  const headroom = fastest.result.generatorHeadroom
  const verdict = headroom >= 1.5 ? 'it measured the server, not itself' : 'too little: it may have measured itself'
  return (
    `Generator: wrk (${generatorThreads} threads) used 1/${headroom.toFixed(1)} of its threads' time at the fastest ` +
    `row (${fastest.name}, ${Math.round(fastest.result.requestsPerSecond)}/s), a headroom of ` +
    `${headroom.toFixed(1)}×: ${verdict}.`
  )
}
