// `npm run soak -- --minutes 10`: the production build under about 200 connections of mixed traffic on a fresh
// database (PostgreSQL when DATABASE_URL is set, else embedded PGlite), then checks: no 5xx, every acknowledged write
// stored exactly once, the billing ledger balanced, p50/p99 per kind of request, and the server's memory (a leak fails).
// Halfway through it takes a backup with `npm run db:backup` and, after the run, restores it into a fresh database: the
// restore drill (bench/soak/drill.ts).
// `npm test` runs it for one minute. Options: --minutes N (default 10), --port P (default SOAK_PORT or 3420); SOAK_SMTP_PORT (default 2550).
import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { noneAcknowledged } from '../bench/soak/acknowledged.ts'
import { backupDuringTraffic, restoreDrill } from '../bench/soak/drill.ts'
import { connectionCount, soakScenarios } from '../bench/soak/flows.ts'
import { checksTable, latencyTable, markdownTable } from '../bench/soak/report.ts'
import { createSoakDatabase, type SoakServer, startSoakServer, tailOf } from '../bench/soak/server.ts'
import { prepareOrganizations } from '../bench/soak/setup.ts'
import { runTraffic } from '../bench/soak/traffic.ts'
import { type Check, verifyDatabase } from '../bench/soak/verify.ts'
import { buildWhenStale } from './build.ts'
import { installedAppNames } from './generate-apps.ts'
import { assertSupportedNode, root } from './project.ts'

/**
 * A leak fails the soak when the server's least RSS over the last fifth of the run exceeds its least RSS between the
 * 20% and 40% marks (minutes 2 to 4 of 10) by more than this share of it or this many MB, whichever is larger. By minute 2 the caches, the JIT and the
 * database's buffer pool have filled; what still grows after that grows with the data (books, sessions, events) or
 * with V8's heap between collections, which measured 5-15% on a healthy server. A per-request leak grows with the
 * number of requests (hundreds of thousands in ten minutes) and passes both bounds.
 */
const leakMargin = { share: 0.25, megabytes: 100 }
const organizationCount = 10

function readOptions(): { minutes: number; port: number; smtpPort: number } {
  const { values } = parseArgs({
    options: { minutes: { type: 'string', default: '10' }, port: { type: 'string' } },
    allowPositionals: false,
  })
  const minutes = Number(values.minutes)
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 120) {
    console.error(`--minutes must be a number of minutes between 0 and 120, got ${values.minutes}`)
    process.exit(2)
  }
  const port = Number(values.port ?? process.env.SOAK_PORT ?? 3420)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`--port must be a TCP port, got ${values.port ?? process.env.SOAK_PORT}`)
    process.exit(2)
  }
  // The app's email goes to an SMTP server of the soak's own, on this port.
  const smtpPort = Number(process.env.SOAK_SMTP_PORT ?? 2550)
  return { minutes, port, smtpPort }
}

/**
 * What failed, a line each, for `npm test`'s summary: CI keeps only the end of the output, and the soak's tables scroll
 * out of it behind the steps that follow.
 */
const failuresFile = path.join(root, 'test-results', 'soak-failures.txt')
function keepFailures(lines: string[]): void {
  mkdirSync(path.dirname(failuresFile), { recursive: true })
  writeFileSync(failuresFile, `${lines.join('\n')}\n`)
}

/** The database folder is removed after the run; a failed run's server log is kept for whoever looks into it. */
function keepServerLog(logFile: string): void {
  const kept = path.join(root, 'test-results', 'soak-server.log')
  mkdirSync(path.dirname(kept), { recursive: true })
  copyFileSync(logFile, kept)
  console.log(`The server's whole log: ${path.relative(root, kept)}`)
}

assertSupportedNode()
const { minutes, port, smtpPort } = readOptions()
const seconds = Math.round(minutes * 60)
await buildWhenStale(() => console.log('Building the app (sources changed or no build yet)…'))

const runTag = randomBytes(4).toString('hex')
/** The apps this copy carries: a removed app's requests and checks are left out. */
const installedApps = installedAppNames()
const database = await createSoakDatabase(process.env.DATABASE_URL)
let server: SoakServer | undefined
let stopping = false
const cleanUp = async () => {
  if (stopping) return
  stopping = true
  await server?.stop().catch(() => undefined)
  await database.remove().catch((error) => console.error('Removing the soak database failed:', error))
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal} received: stopping the soak.`)
    void cleanUp().then(() => process.exit(130))
  })
}

let failed = false
try {
  server = await startSoakServer({ port, smtpPort, database })
  const acknowledged = noneAcknowledged()
  const organizations = await prepareOrganizations(server.origin, runTag, organizationCount, acknowledged)
  const scenarios = soakScenarios({ origin: server.origin, runTag, organizations, acknowledged, installedApps })

  console.log(`Hatch soak: ${minutes} min, ${connectionCount(scenarios)} connections, ${server.origin}`)
  console.log(
    `Database:   ${database.engine === 'PostgreSQL' ? 'PostgreSQL (a fresh database on DATABASE_URL)' : 'PGlite (embedded, a fresh folder)'}` +
      `${process.env.REDIS_URL ? '; Redis for sessions and rate limits' : ''}`,
  )
  console.log(`Node:       ${process.version}; server process ${server.pid}\n`)

  const soakServer = server
  // The server's RSS every 5 s. It swings by up to 100 MB within seconds (a backup, a CSV import, V8 giving pages back
  // late), so one reading at each end measured where a swing happened to be: a 1-minute soak failed by 2-4 MB twice,
  // ending on a swing. The check compares floors instead: the least reading early against the least at the end. A
  // leak raises the floor and still fails it.
  const rssSamples: { second: number; megabytes: number }[] = []
  const earlyAt = Math.round(seconds * 0.2)
  const started = performance.now()
  // Bounded by the run: cleared when the traffic stops.
  const rssSampler = setInterval(() => {
    const megabytes = soakServer.residentMegabytes()
    if (megabytes !== undefined) rssSamples.push({ second: (performance.now() - started) / 1000, megabytes })
  }, 5000)
  // The restore drill: a backup halfway through, while the traffic goes on (bench/soak/drill.ts).
  const drillBackup = backupDuringTraffic(database, acknowledged, seconds / 2)
  const traffic = await runTraffic(scenarios, port, seconds)
  const backup = await drillBackup
  const elapsed = (performance.now() - started) / 1000
  clearInterval(rssSampler)
  const lastRss = server.residentMegabytes()
  if (lastRss !== undefined) rssSamples.push({ second: elapsed, megabytes: lastRss })
  const floorBetween = (from: number, to: number) => {
    const within = rssSamples.filter((sample) => sample.second >= from && sample.second <= to)
    return within.length > 0 ? Math.min(...within.map((sample) => sample.megabytes)) : undefined
  }
  const memory = {
    // From the 20% mark (minute 2 of 10) to the 40% mark, and over the last fifth of the run.
    early: floorBetween(earlyAt, seconds * 0.4),
    peak: Math.max(0, ...rssSamples.map((sample) => sample.megabytes)),
  }
  const endRss = floorBetween(elapsed - seconds * 0.2, elapsed)
  const serverAlive = !server.exited()
  const exitCode = await server.stop()

  const checks: Check[] = []
  const total = (pick: (status: number) => boolean) =>
    traffic.kinds.reduce(
      (sum, kind) => sum + [...kind.statuses].filter(([status]) => pick(status)).reduce((s, [, n]) => s + n, 0),
      0,
    )
  const answers = total(() => true)
  const fivexx = total((status) => status >= 500)
  const unexpected = traffic.kinds.reduce((sum, kind) => sum + kind.unexpected, 0)
  const errors = traffic.scenarios.reduce((sum, scenario) => sum + scenario.errors, 0)
  const timeouts = traffic.scenarios.reduce((sum, scenario) => sum + scenario.timeouts, 0)
  checks.push({ name: '5xx answers', expected: '0', found: `${fivexx} of ${answers}`, ok: fivexx === 0 && answers > 0 })
  checks.push({
    name: 'other unexpected answers',
    expected: '0',
    found: String(unexpected - fivexx),
    ok: unexpected - fivexx === 0,
  })
  checks.push({
    name: 'connection errors and timeouts',
    expected: '0',
    found: `${errors} (${timeouts} timeouts)`,
    ok: errors === 0,
  })
  checks.push({
    name: 'server up to the end, then stopped cleanly',
    expected: 'exit 0',
    found: serverAlive ? `exit ${exitCode}` : 'died during the run',
    ok: serverAlive && exitCode === 0,
  })
  const early = memory.early
  const limit = early === undefined ? Number.NaN : early + Math.max(early * leakMargin.share, leakMargin.megabytes)
  checks.push({
    name: `server RSS, least from ${earlyAt % 60 === 0 ? `minute ${earlyAt / 60}` : `${earlyAt} s`} → least at the end`,
    expected: `≤ ${Number.isNaN(limit) ? '?' : limit.toFixed(0)} MB (+max(${leakMargin.share * 100}%, ${leakMargin.megabytes} MB))`,
    found:
      early === undefined || endRss === undefined
        ? 'not measured'
        : `${early.toFixed(0)} → ${endRss.toFixed(0)} MB (${endRss >= early ? '+' : ''}${(((endRss - early) / early) * 100).toFixed(0)}%; peak ${Math.max(memory.peak, endRss).toFixed(0)})`,
    ok: endRss !== undefined && endRss <= limit,
  })
  checks.push(...(await verifyDatabase(database, runTag, acknowledged, installedApps)))
  checks.push(...(await restoreDrill(backup, database.engine, runTag, installedApps)))

  console.log(`Latency per kind of request (${elapsed.toFixed(0)} s of load, ${answers} answers):\n`)
  console.log(latencyTable(traffic.kinds, elapsed))
  const troubled = traffic.scenarios.filter((scenario) => scenario.errors > 0)
  if (troubled.length > 0) {
    console.log('\nConnection errors and timeouts by flow:\n')
    console.log(
      markdownTable(
        ['flow', 'connections', 'errors', 'timeouts', 'first timeout at'],
        troubled.map((scenario) => [
          scenario.name,
          String(scenario.connections),
          String(scenario.errors),
          String(scenario.timeouts),
          scenario.firstTimeoutAt === undefined ? '–' : `${scenario.firstTimeoutAt.toFixed(0)} s`,
        ]),
        [false, true, true, true, true],
      ),
    )
  }
  for (const kind of traffic.kinds.filter((stats) => stats.samples.length > 0)) {
    console.log(`\nUnexpected answers to ${kind.kind}:\n  ${kind.samples.join('\n  ')}`)
  }
  console.log('\nChecks:\n')
  console.log(checksTable(checks))
  const serverErrors = readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((line) => /error/i.test(line)).length
  console.log(`\nEmails delivered to the soak's SMTP server: ${server.emailsDelivered()}.`)
  console.log(`Server log: ${serverErrors} line(s) mentioning an error.`)
  failed = checks.some((check) => !check.ok)
  if (failed || serverErrors > 0) console.log(`Last lines of the server log:\n${tailOf(server.logFile)}`)
  if (failed) {
    keepServerLog(server.logFile)
    keepFailures([
      ...checks
        .filter((check) => !check.ok)
        .map((check) => `${check.name}: expected ${check.expected}, found ${check.found}`),
      ...troubled.map(
        (scenario) => `${scenario.name}: ${scenario.errors} connection errors (${scenario.timeouts} timeouts)`,
      ),
      ...traffic.kinds.flatMap((kind) => kind.samples.slice(0, 3).map((sample) => `${kind.kind}: ${sample}`)),
    ])
  }
  // A passing run leaves no earlier run's failures behind for the summary to show.
  if (!failed) rmSync(failuresFile, { force: true })
  console.log(failed ? '\nSOAK FAILED' : '\nSoak passed.')
} catch (error) {
  console.error(error)
  keepFailures([`stopped by an error: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2000)])
  if (server) {
    console.error(`Last lines of the server log:\n${tailOf(server.logFile)}`)
    keepServerLog(server.logFile)
  }
  failed = true
} finally {
  await cleanUp()
}
process.exit(failed ? 1 : 0)
