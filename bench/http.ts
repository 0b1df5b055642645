// HTTP throughput benchmark of an already running production server (`npm start`); run it with `npm run bench`.
// It builds nothing and starts no server. Settings (environment):
//   BENCH_URL         the server to measure, loopback only (default http://localhost:3000)
//   BENCH_DURATION    seconds measured per target, after an uncounted 5 s warm-up (default 10)
//   BENCH_STATIC_DIR  the directory the server serves static files from (default dist/client)
// The analytics row sends thousands of beacons from one address: start the server with INSIGHTS_BEACONS_PER_MINUTE=0.
// The static ceiling serves the exact bytes of the SSR landing page as a file from that directory, written to
// <BENCH_STATIC_DIR>/bench-static/ for the run and always deleted afterwards.
// After the rows it reports the measured server's memory (RSS, read from /proc), and times a cold start: a second
// production server started on an existing embedded database, until its first healthy answer.
import { spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { serverHeapFlags, serverMallocSettings } from '../scripts/project.ts'

/** The part of autocannon's API used here (the package ships no types). */
interface Histogram {
  average: number
  p50: number
  p99: number
}
interface AutocannonResult {
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

/** A server-rendered or API route to measure. Add rows here. */
interface Target {
  name: string
  path: string
  /** Sent with the session cookie of an account the benchmark signs up (it then has a personal workspace). */
  signedIn?: boolean
}

/** A tRPC query's URL (superjson input), as the browser sends it. */
const trpcQuery = (procedure: string, input: unknown) =>
  `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`

/** Books imported into the benchmark account's workspace before the book rows are measured. */
const benchBookCount = 10_000

function targets(deepCursor: string): Target[] {
  return [
    { name: 'landing /en/ (SSR)', path: '/en/' },
    { name: 'docs page (SSR)', path: '/en/docs/development/testing' },
    { name: '/api/health (DB round trip)', path: '/api/health' },
    { name: 'GET /api/auth/get-session (signed in)', path: '/api/auth/get-session', signedIn: true },
    { name: 'console members page (SSR, signed in)', path: '/en/console/organization/members', signedIn: true },
    {
      name: 'organization-scoped tRPC query (activity)',
      path: trpcQuery('organizations.activity', { limit: 20 }),
      signedIn: true,
    },
    {
      name: `books.list first page (${benchBookCount} books)`,
      path: trpcQuery('books.list', { limit: 25 }),
      signedIn: true,
    },
    {
      name: 'books.list search "river" (title, author, ISBN)',
      path: trpcQuery('books.list', { q: 'river', limit: 25 }),
      signedIn: true,
    },
    {
      name: 'books.list deep cursor (after 9,000 by title)',
      path: trpcQuery('books.list', { sort: 'title', direction: 'asc', after: deepCursor, limit: 25 }),
      signedIn: true,
    },
  ]
}

/** The ceiling: the same bytes as `source`, served as a static file by the same server. */
const ceiling = {
  name: 'landing as static file (ceiling)',
  source: '/en/',
  dir: 'bench-static',
  file: 'landing-en.html',
}

const connections = 50
// Long enough for V8 to optimise the render path; the first seconds after a start are not representative.
const warmupSeconds = 5
const requestTimeoutSeconds = 10

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

function fail(message: string): never {
  console.error(`\n${message}`)
  process.exit(1)
}

function readSettings() {
  const raw = process.env.BENCH_URL || 'http://localhost:3000'
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    fail(`BENCH_URL is not a URL: ${raw}`)
  }
  if (url.protocol !== 'http:') fail(`BENCH_URL must be an http:// URL, got ${raw}`)
  const host = url.hostname
  if (host !== 'localhost' && host !== '[::1]' && !/^127(\.\d{1,3}){3}$/.test(host)) {
    fail(`BENCH_URL must point at this machine (localhost, 127.x.x.x or [::1]), got ${raw}`)
  }
  const duration = Number(process.env.BENCH_DURATION || 10)
  if (!Number.isFinite(duration) || duration <= 0) {
    fail(`BENCH_DURATION must be a positive number of seconds, got ${process.env.BENCH_DURATION}`)
  }
  const staticDir = process.env.BENCH_STATIC_DIR
    ? path.resolve(process.env.BENCH_STATIC_DIR)
    : path.resolve(import.meta.dirname, '..', 'dist/client')
  return { origin: url.origin, duration, staticDir }
}

const settings = readSettings()
const staticFolder = path.join(settings.staticDir, ceiling.dir)
const staticPath = `/${ceiling.dir}/${ceiling.file}`

function removeStaticFolder(): void {
  rmSync(staticFolder, { recursive: true, force: true })
}

let current: AutocannonInstance | undefined
process.on('exit', removeStaticFolder)
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    current?.stop()
    removeStaticFolder()
    console.error(`\n${signal} received: stopped; removed ${staticFolder}.`)
    process.exit(code)
  })
}

/** GET without compression, like autocannon, so the byte counts compare what the benchmark receives. */
async function get(pathname: string): Promise<Response> {
  return fetch(new URL(pathname, settings.origin), {
    headers: { 'accept-encoding': 'identity' },
    signal: AbortSignal.timeout(requestTimeoutSeconds * 1000),
  })
}

async function assertServerReachable(): Promise<void> {
  try {
    await get('/api/health')
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : error
    fail(
      `No server answers at ${settings.origin} (${reason}).\n` +
        'This benchmark measures a running production server: start it in another terminal with `npm start`,\n' +
        'wait for "Hatch is listening", then run `npm run bench` again.',
    )
  }
}

/** Writes the SSR body as a static file, then checks the server returns exactly those bytes for it. */
async function prepareStaticCeiling(): Promise<number> {
  const ssr = await get(ceiling.source)
  const body = Buffer.from(await ssr.arrayBuffer())
  if (ssr.status !== 200) fail(`GET ${ceiling.source} answered ${ssr.status}; cannot build the static ceiling.`)
  if (ssr.headers.get('content-encoding')) fail(`GET ${ceiling.source} came back compressed; expected identity.`)
  if (!existsSync(settings.staticDir)) {
    fail(
      `BENCH_STATIC_DIR ${settings.staticDir} does not exist; it must be the directory the server serves files from.`,
    )
  }
  mkdirSync(staticFolder, { recursive: true })
  writeFileSync(path.join(staticFolder, ceiling.file), body)

  const copy = await get(staticPath)
  const copyBody = Buffer.from(await copy.arrayBuffer())
  if (copy.status !== 200) {
    fail(
      `GET ${staticPath} answered ${copy.status} after writing ${path.join(staticFolder, ceiling.file)}.\n` +
        'Is BENCH_STATIC_DIR the directory this server serves static files from?',
    )
  }
  if (copyBody.byteLength !== body.byteLength || !copyBody.equals(body)) {
    fail(
      `The static copy differs from the SSR page: ${staticPath} is ${copyBody.byteLength} bytes, ` +
        `${ceiling.source} was ${body.byteLength} bytes. The comparison would be meaningless.`,
    )
  }
  return body.byteLength
}

interface Measurement {
  name: string
  path: string
  result: AutocannonResult
  failures: number
  warmupFailures: number
}

function failuresOf(result: AutocannonResult): number {
  return result.non2xx + result.errors + result.mismatches
}

/**
 * Signs up a throwaway account (a new one each run, so nothing depends on earlier runs) and returns its session
 * cookie; the server's own sign-up gives it a personal workspace to be active in.
 */
async function signUpBenchAccount(): Promise<string> {
  const email = `bench-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const response = await fetch(new URL('/api/auth/sign-up/email', settings.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: settings.origin },
    body: JSON.stringify({ name: 'Bench', email, password: `bench-${Date.now()}` }),
  })
  if (response.status !== 200) {
    fail(
      `Signing up a benchmark account answered ${response.status}: ${await response.text()}\n` +
        'Is APP_URL the address the benchmark uses (BENCH_URL)? Better Auth refuses other origins.',
    )
  }
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((pair) => !pair.endsWith('='))
    .join('; ')
}

/**
 * The cookie with a fresh signed session copy, as a browser holds it: the copy lasts SESSION_CACHE_SECONDS, and
 * autocannon keeps the cookie it was given, so each signed-in row starts with a new one.
 */
async function withFreshSessionCopy(cookie: string): Promise<string> {
  const sessionToken = cookie.split('; ').filter((pair) => !pair.startsWith('hatch.session_data'))
  const response = await fetch(new URL('/api/auth/get-session', settings.origin), {
    headers: { cookie: sessionToken.join('; ') },
  })
  if (response.status !== 200) fail(`Refreshing the benchmark session answered ${response.status}.`)
  const copies = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => pair.startsWith('hatch.session_data') && !pair.endsWith('='))
  return [...sessionToken, ...copies].join('; ')
}

/** A tRPC mutation as the browser sends it; fails the run on an error answer. */
async function trpcMutation<T>(path: string, cookie: string, input: unknown): Promise<T> {
  const response = await fetch(new URL(`/api/trpc/${path}`, settings.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: settings.origin, cookie },
    body: JSON.stringify({ json: input }),
  })
  if (response.status !== 200) fail(`${path} answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { result: { data: { json: T } } }).result.data.json
}

/**
 * Free holds 50 books, so the workspace buys Pro first, through the built-in test provider's checkout as a person
 * would (a server with Stripe keys cannot be benchmarked this way: use one without them).
 */
async function upgradeBenchWorkspace(cookie: string): Promise<void> {
  const { url } = await trpcMutation<{ url: string }>('billing.startCheckout', cookie, {
    planId: 'pro',
    interval: 'monthly',
    currency: 'USD',
    locale: 'en',
  })
  const checkoutId = url.slice(url.lastIndexOf('/') + 1)
  if (!checkoutId.startsWith('lcs_')) fail(`Checkout went to ${url}, not the built-in test provider.`)
  await trpcMutation('billing.local.settle', cookie, { id: checkoutId, outcome: 'pay' })
}

/**
 * Imports the sample books into the account's workspace (one CSV, as a person would), then pages through them by
 * title to find the cursor 9,000 rows deep. Returns that cursor.
 */
async function importBenchBooks(cookie: string): Promise<string> {
  const lines = ['title,authors,isbn,published_year,language,tags']
  const words = ['River', 'Garden', 'Machine', 'Harbour', 'Letter', 'Forest', '山河', '星河', 'Atlas', 'Lantern']
  for (let index = 0; index < benchBookCount; index++) {
    lines.push(`The ${words[index % 10]} ${index},Author ${index % 97},,${1900 + (index % 125)},en,tag${index % 20}`)
  }
  const started = performance.now()
  const response = await fetch(new URL('/api/trpc/books.import', settings.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: settings.origin, cookie },
    body: JSON.stringify({ json: { csv: lines.join('\n'), dryRun: false } }),
  })
  if (response.status !== 200)
    fail(`Importing the benchmark books answered ${response.status}: ${await response.text()}`)
  console.log(`Imported ${benchBookCount} books in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`)
  let after: string | undefined
  for (let page = 0; page < 90; page++) {
    const list = await fetch(
      new URL(trpcQuery('books.list', { sort: 'title', direction: 'asc', limit: 100, after }), settings.origin),
      { headers: { cookie } },
    )
    const body = (await list.json()) as { result?: { data: { json: { nextCursor?: string } } } }
    after = body.result?.data.json.nextCursor
    if (!after) fail(`Paging through the benchmark books stopped at page ${page + 1} (HTTP ${list.status}).`)
  }
  return after ?? ''
}

interface Load {
  name: string
  path: string
  method?: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
}

async function runLoad(load: Load, duration: number): Promise<AutocannonResult> {
  const url = new URL(load.path, settings.origin).href
  const instance = autocannon({
    url,
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

async function measure(name: string, pathname: string, cookie?: string): Promise<Measurement> {
  const load: Load = { name, path: pathname, headers: cookie ? { cookie } : undefined }
  console.log(`- ${name}: GET ${pathname} (${warmupSeconds} s warm-up, ${settings.duration} s measured)`)
  const warmup = await runLoad(load, warmupSeconds)
  const result = await runLoad(load, settings.duration)
  return { name, path: pathname, result, failures: failuresOf(result), warmupFailures: failuresOf(warmup) }
}

/**
 * Analytics beacons at 50 connections while the landing page is served at 50 more: the beacon endpoint's rate, and
 * the landing page's beside it (compare with its row alone). The server must accept that many beacons from one
 * address: start it with INSIGHTS_BEACONS_PER_MINUTE=0.
 */
async function measureBeaconsBesideLanding(): Promise<Measurement[]> {
  const beacons: Load = {
    name: 'analytics beacons (while landing is served)',
    path: '/api/insights',
    method: 'POST',
    headers: {
      'content-type': 'text/plain',
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
    },
    body: JSON.stringify({
      type: 'pageview',
      id: 'benchview01',
      url: `${settings.origin}/en/docs?utm_source=bench`,
      entry: true,
      referrer: 'https://news.example/',
      language: 'en-US',
      screenWidth: 1280,
    }),
  }
  const landing: Load = { name: 'landing /en/ (while beacons arrive)', path: '/en/' }
  console.log(`- ${beacons.name}: POST ${beacons.path} beside GET ${landing.path}`)
  const both = (duration: number) => Promise.all([runLoad(beacons, duration), runLoad(landing, duration)])
  const warmup = await both(warmupSeconds)
  const [beaconResult, landingResult] = await both(settings.duration)
  const row = (load: Load, result: AutocannonResult, warmupResult: AutocannonResult): Measurement => ({
    name: load.name,
    path: load.path,
    result,
    failures: failuresOf(result),
    warmupFailures: failuresOf(warmupResult),
  })
  // 204 is "not counted" (analytics switched off in Configuration): quick, and measuring nothing the row claims.
  const uncounted = (result: AutocannonResult) => result.statusCodeStats['204']?.count ?? 0
  const beaconRow = row(beacons, beaconResult, warmup[0])
  beaconRow.failures += uncounted(beaconResult)
  beaconRow.warmupFailures += uncounted(warmup[0])
  return [beaconRow, row(landing, landingResult, warmup[1])]
}

function describeFailures(result: AutocannonResult): string {
  const codes = Object.entries(result.statusCodeStats)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${count}× HTTP ${code}`)
  if (result.errors) codes.push(`${result.errors} errors (${result.timeouts} timeouts)`)
  if (result.mismatches) codes.push(`${result.mismatches} body mismatches`)
  return codes.join(', ')
}

function formatMs(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2)
}

function printTable(rows: Measurement[], ceilingRps: number): void {
  const header = ['target', 'requests/s (avg)', 'p50 ms', 'p99 ms', 'non-2xx+errors', 'vs static']
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

/** The process listening on `port` on this machine (Linux /proc), or undefined when it cannot be told. */
function listeningProcess(port: number): number | undefined {
  const inodes = new Set<string>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      const localPort = Number.parseInt(fields[1]?.split(':')[1] ?? '', 16)
      if (localPort === port && fields[3] === '0A' && fields[9]) inodes.add(fields[9])
    }
  }
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    for (const fd of entriesOrNone(`/proc/${pid}/fd`)) {
      if (inodes.has(/^socket:\[(\d+)\]$/.exec(linkOrNone(`/proc/${pid}/fd/${fd}`))?.[1] ?? '')) return Number(pid)
    }
  }
  return undefined
}

/** A directory's entries; none for another user's process or one that has just exited. */
function entriesOrNone(directory: string): string[] {
  try {
    return readdirSync(directory)
  } catch {
    return []
  }
}

/** Where a link points; '' when it is gone (the server closes the run's connections while it is read). */
function linkOrNone(link: string): string {
  try {
    return readlinkSync(link)
  } catch {
    return ''
  }
}

/** Resident memory of a process in MB, from /proc. */
function residentMegabytes(pid: number): number | undefined {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : undefined
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** Starts the built production server on `dataDir` and resolves with the ms until /api/health answers 200. */
async function timeStart(dataDir: string): Promise<{ ms: number; stop: () => Promise<void> }> {
  const port = await freePort()
  const started = performance.now()
  // The serve script, not `npm start`: the build is there already and must not be rebuilt.
  const serveScript = pathToFileURL(path.resolve(import.meta.dirname, '..', 'scripts/serve.ts')).href
  const startServer = `await (await import(${JSON.stringify(serveScript)})).startProductionServer()`
  const child = spawn(process.execPath, [...serverHeapFlags, '--input-type=module', '-e', startServer], {
    env: {
      ...serverMallocSettings,
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DATABASE_URL: '',
      REDIS_URL: '',
      APP_URL: '',
    },
    stdio: 'ignore',
  })
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  for (;;) {
    if (child.exitCode !== null) fail(`The cold-start server exited with code ${child.exitCode}.`)
    if (performance.now() - started > 60_000) {
      await stop()
      fail('The cold-start server did not answer /api/health within 60 s.')
    }
    try {
      const health = await fetch(`http://127.0.0.1:${port}/api/health`)
      if (health.status === 200) return { ms: performance.now() - started, stop }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A cold start on an existing embedded database: created (and migrated) by a first start, timed on the second. */
async function measureColdStart(): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-bench-cold-'))
  try {
    await (await timeStart(dataDir)).stop()
    const second = await timeStart(dataDir)
    await second.stop()
    return second.ms
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  await assertServerReachable()
  const bytes = await prepareStaticCeiling()

  console.log('Hatch HTTP benchmark')
  console.log(`Node:        ${process.version}`)
  console.log(`BENCH_URL:   ${settings.origin}`)
  console.log(`Duration:    ${settings.duration} s per target, after ${warmupSeconds} s uncounted warm-up`)
  console.log(`Connections: ${connections}`)
  console.log(`Static ceiling: ${staticPath} (${bytes} bytes, same as ${ceiling.source})\n`)

  const cookie = await signUpBenchAccount()
  await upgradeBenchWorkspace(cookie)
  const deepCursor = await importBenchBooks(cookie)
  const rows: Measurement[] = []
  for (const target of targets(deepCursor)) {
    rows.push(await measure(target.name, target.path, target.signedIn ? await withFreshSessionCopy(cookie) : undefined))
  }
  rows.push(...(await measureBeaconsBesideLanding()))
  const staticRow = await measure(ceiling.name, staticPath)
  rows.push(staticRow)
  removeStaticFolder()

  console.log('')
  printTable(rows, staticRow.result.requests.average)

  const pid = listeningProcess(Number(new URL(settings.origin).port || 80))
  const rss = pid ? residentMegabytes(pid) : undefined
  console.log(
    rss
      ? `\nServer memory after the run: ${rss.toFixed(0)} MB RSS (process ${pid}).`
      : '\nServer memory: the listening process could not be found in /proc.',
  )
  const coldMs = await measureColdStart()
  console.log(`Cold start on an existing embedded database, to the first healthy answer: ${coldMs.toFixed(0)} ms.`)

  const failed = rows.filter((row) => row.failures > 0 || row.warmupFailures > 0)
  if (failed.length > 0) {
    console.error('\nSome requests failed, so these numbers do not measure working responses:')
    if (failed.some((row) => row.path === '/api/insights' && row.result.statusCodeStats['429'])) {
      console.error('(Beacons got 429: start the server with INSIGHTS_BEACONS_PER_MINUTE=0 to measure the endpoint.)')
    }
    if (failed.some((row) => row.path === '/api/insights' && row.result.statusCodeStats['204'])) {
      console.error('(Beacons got 204, not counted: switch analytics on in Configuration to measure the endpoint.)')
    }
    for (const row of failed) {
      if (row.failures > 0) console.error(`- ${row.name} (${row.path}): ${describeFailures(row.result)}`)
      if (row.warmupFailures > 0) console.error(`- ${row.name} (${row.path}): ${row.warmupFailures} failed in warm-up`)
    }
    process.exitCode = 1
  }
}

try {
  await main()
} finally {
  removeStaticFolder()
}
