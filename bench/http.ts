import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { installedAppNames } from '../scripts/generate-apps.ts'
import {
  importBenchBooks,
  signUpBenchAccount,
  trpcQuery,
  upgradeBenchWorkspace,
  withFreshSessionCopy,
} from './bench-account.ts'
import { measureColdStart } from './cold-start.ts'
import {
  type CeilingSample,
  connections,
  describeHeadroom,
  durationSetting,
  fail,
  failuresOf,
  getUncompressed,
  type Load,
  type LoadResult,
  type Measurement,
  measure,
  printTable,
  reportFailures,
  runLoad,
  startNginxCeiling,
  startNginxCopies,
  warmupSeconds,
} from './load.ts'

/** A server-rendered or API route to measure. Add rows here. */
interface Target {
  name: string
  path: string
  /** Sent with the session cookie of an account the benchmark signs up (it then has a personal workspace). */
  signedIn?: boolean
}

/** Books imported into the benchmark account's workspace before the book rows are measured. */
const benchBookCount = 10_000

function targets(deepCursor: string): Target[] {
  return [
    { name: 'landing /en/ (SSR)', path: '/en/' },
    { name: 'docs page (SSR)', path: '/en/docs/development/testing' },
    { name: '/api/health (DB round trip)', path: '/api/health' },
    { name: 'GET /api/auth/get-session (signed in)', path: '/api/auth/get-session', signedIn: true },
    // What every landing page visit asks from the browser; most visitors are signed out.
    { name: 'GET /api/auth/get-session (signed out)', path: '/api/auth/get-session' },
    { name: 'console members page (SSR, signed in)', path: '/en/console/organization/members', signedIn: true },
    { name: 'Dashboard /en/console (SSR, app admin)', path: '/en/console', signedIn: true },
    { name: `Books /en/console/books (SSR, ${benchBookCount} books)`, path: '/en/console/books', signedIn: true },
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
  const duration = durationSetting()
  return { origin: url.origin, duration }
}

const settings = readSettings()
const get = (pathname: string) => getUncompressed(new URL(pathname, settings.origin).href)

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

/** Pages through the benchmark books by title to find the cursor 9,000 rows deep. */
async function deepCursor(cookie: string): Promise<string> {
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

/** A signed-in or anonymous GET of a path on the measured server. */
function measurePath(name: string, pathname: string, cookie?: string): Promise<Measurement> {
  return measure(
    {
      name,
      url: new URL(pathname, settings.origin).href,
      headers: cookie ? { cookie } : undefined,
      // A signed-in page that lost its session redirects to sign-in: counted, so it shows as a failure.
      countStatuses: Boolean(cookie),
    },
    settings.duration,
  )
}

/**
 * Analytics beacons at 50 connections while the landing page is served at 50 more: the beacon endpoint's rate, and
 * the landing page's beside it (compare with its row alone). The server must accept that many beacons from one
 * address: start it with INSIGHTS_BEACONS_PER_MINUTE=0.
 */
async function measureBeaconsBesideLanding(): Promise<Measurement[]> {
  const beacons: Load = {
    name: 'analytics beacons (while landing is served)',
    url: new URL('/api/insights', settings.origin).href,
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
    countStatuses: true,
  }
  const landing: Load = { name: 'landing /en/ (while beacons arrive)', url: new URL('/en/', settings.origin).href }
  console.log(`- ${beacons.name}: POST ${beacons.url} beside GET ${landing.url}`)
  const both = (duration: number) => Promise.all([runLoad(beacons, duration), runLoad(landing, duration)])
  const warmup = await both(warmupSeconds)
  const [beaconResult, landingResult] = await both(settings.duration)
  const row = (load: Load, result: LoadResult, warmupResult: LoadResult): Measurement => ({
    name: load.name,
    url: load.url,
    result,
    failures: failuresOf(result),
    warmupFailures: failuresOf(warmupResult),
  })
  // 204 is "not counted" (analytics switched off in Configuration): quick, and measuring nothing the row claims.
  const uncounted = (result: LoadResult) => result.statuses?.['204'] ?? 0
  const beaconRow = row(beacons, beaconResult, warmup[0])
  beaconRow.failures += uncounted(beaconResult)
  beaconRow.warmupFailures += uncounted(warmup[0])
  return [beaconRow, row(landing, landingResult, warmup[1])]
}

/**
 * Answers that are the same for every visitor, each measured beside nginx serving its very bytes: the docs page and
 * the start-up script (the one every page loads first) plain and brotli-compressed, as a browser asks for it.
 */
async function sameBytesSamples(): Promise<CeilingSample[]> {
  const landing = await (await get('/en/')).text()
  const script =
    /<script[^>]+src="(\/assets\/app-[\w-]+\.js)"/.exec(landing)?.[1] ??
    /"(\/assets\/app-[\w-]+\.js)"/.exec(landing)?.[1]
  if (!script) fail('The landing page names no start-up script (/assets/app-*.js).')
  const url = (pathname: string) => new URL(pathname, settings.origin).href
  return [
    { name: 'docs page (SSR)', url: url('/en/docs/development/testing') },
    { name: 'start-up script (identity)', url: url(script) },
    { name: 'start-up script (br)', url: url(script), headers: { 'accept-encoding': 'br' } },
  ]
}

/** Each sample from the app, then from nginx, one after the other; the app's row is compared with its own ceiling. */
async function measureBesideNginx(samples: CeilingSample[]): Promise<Measurement[]> {
  const copies = await startNginxCopies(samples)
  const rows: Measurement[] = []
  for (const [index, sample] of samples.entries()) {
    const app = await measure(
      { name: `${sample.name}, same bytes`, url: sample.url, headers: sample.headers },
      settings.duration,
    )
    const nginx = await measure(copies.loads[index] as Load, settings.duration)
    app.ceilingRps = nginx.result.requestsPerSecond
    nginx.ceilingRps = nginx.result.requestsPerSecond
    rows.push(app, nginx)
  }
  await copies.stop()
  return rows
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

/** A process's parent, from /proc (undefined once it has exited). */
function parentOf(pid: number): number | undefined {
  try {
    // The command name in brackets may hold spaces: the fields after its closing bracket are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/**
 * The server's processes: with several (WEB_CONCURRENCY, by default one per CPU on PostgreSQL), the launcher and
 * every worker it started, so that the memory reported is what the server holds in all, not one process's share.
 */
function serverProcesses(listeningPid: number): number[] {
  // A cluster worker (Node gives it NODE_UNIQUE_ID) answers for its launcher, which holds the listening socket.
  const launcher = readEnvironment(listeningPid).includes('NODE_UNIQUE_ID=')
    ? (parentOf(listeningPid) ?? listeningPid)
    : listeningPid
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
  const family = [launcher]
  for (let index = 0; index < family.length; index++) {
    for (const pid of all) if (parentOf(pid) === family[index]) family.push(pid)
  }
  return family
}

function readEnvironment(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8')
  } catch {
    return ''
  }
}

/** Resident memory of a process in MB, from /proc. */
function residentMegabytes(pid: number): number | undefined {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : undefined
}

/** How long the bench leaves the server without requests before it reads its memory again (BENCH_IDLE_SECONDS). */
const idleSeconds = Math.max(0, Number(process.env.BENCH_IDLE_SECONDS ?? 90) || 0)

/** The resident memory of the server's processes, in all and each. */
function describeMemory(pid: number | undefined): string {
  if (!pid) return 'the listening process could not be found in /proc.'
  const memory = serverProcesses(pid).map((process) => ({ process, rss: residentMegabytes(process) ?? 0 }))
  if (memory.length === 1) return `${memory[0]?.rss.toFixed(0)} MB RSS (process ${pid}).`
  const each = memory.map(({ process, rss }) => `${process}: ${rss.toFixed(0)}`).join(', ')
  return `${memory.reduce((sum, { rss }) => sum + rss, 0).toFixed(0)} MB RSS in all, ${memory.length} processes (${each} MB).`
}

async function main(): Promise<void> {
  await assertServerReachable()
  const ceiling = await startNginxCeiling(new URL('/en/', settings.origin).href)

  console.log('Hatch HTTP benchmark')
  console.log(`Node:        ${process.version}`)
  console.log(`BENCH_URL:   ${settings.origin}`)
  console.log(`Duration:    ${settings.duration} s per target, after ${warmupSeconds} s uncounted warm-up`)
  console.log(`Connections: ${connections}`)
  console.log(`Ceiling:     ${ceiling.load.url} (nginx, ${ceiling.bytes} bytes, the same as /en/)\n`)

  const cookie = await signUpBenchAccount(settings.origin)
  await upgradeBenchWorkspace(settings.origin, cookie)
  const importSeconds = await importBenchBooks(settings.origin, cookie, benchBookCount)
  console.log(`Imported ${benchBookCount} books in ${importSeconds.toFixed(1)} s.\n`)
  const rows: Measurement[] = []
  for (const target of targets(await deepCursor(cookie))) {
    const cookieForRow = target.signedIn ? await withFreshSessionCopy(settings.origin, cookie) : undefined
    rows.push(await measurePath(target.name, target.path, cookieForRow))
  }
  // The beacons' row while the analytics app is installed (src/apps.ts): without it there is no endpoint to measure.
  const beaconRows = installedAppNames().includes('analytics') ? await measureBeaconsBesideLanding() : []
  rows.push(...beaconRows)
  // Today's numbers now hold the beacons just sent: the Dashboard must not scan them per request.
  const beaconsToday = beaconRows[0]?.result.statuses?.['202'] ?? 0
  rows.push(
    await measurePath(
      `Dashboard /en/console (after ${beaconsToday} beacons today)`,
      '/en/console',
      await withFreshSessionCopy(settings.origin, cookie),
    ),
  )
  rows.push(...(await measureBesideNginx(await sameBytesSamples())))
  const ceilingRow = await measure(ceiling.load, settings.duration)
  rows.push(ceilingRow)
  await ceiling.stop()

  console.log('')
  printTable(rows, ceilingRow.result.requestsPerSecond)
  console.log(`\n${describeHeadroom(rows)}`)

  const pid = listeningProcess(Number(new URL(settings.origin).port || 80))
  console.log(`\nServer memory after the run: ${describeMemory(pid)}`)
  const cold = await measureColdStart()
  console.log(
    `Cold start on an existing embedded database, to the first healthy answer: ${cold.appMs.toFixed(0)} ms ` +
      `(the landing page right after: ${cold.firstPageMs.toFixed(0)} ms; a bare Node server: ${cold.bareNodeMs.toFixed(0)} ms; medians of 3).`,
  )
  // V8 keeps the heap pages a busy run freed, for reuse, until its memory reducer sees the allocation rate fall: about
  // a minute here. What an idle server holds is what it leaves to the rest of the machine.
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000))
  console.log(`Server memory after ${idleSeconds} s without requests: ${describeMemory(pid)}`)

  if (reportFailures(rows)) {
    const beaconCodes = rows.find((row) => row.url.endsWith('/api/insights'))?.result.statuses ?? {}
    if (beaconCodes['429']) {
      console.error('(Beacons got 429: start the server with INSIGHTS_BEACONS_PER_MINUTE=0 to measure the endpoint.)')
    }
    if (beaconCodes['204']) {
      console.error('(Beacons got 204, not counted: switch analytics on in Configuration to measure the endpoint.)')
    }
    process.exitCode = 1
  }
}

await main()
