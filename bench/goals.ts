// Issue 55's goals, on production servers this bench starts itself: on the embedded database, and on PostgreSQL with
// Redis (the default one process per core) when DATABASE_URL and REDIS_URL are set. Run first by `npm run bench`, or
// alone with `npm run bench:goals`. Every row is driven by Debian's wrk (bench/load.ts) and printed beside its
// ceiling and its goal:
//   - the landing page and a docs page at ≥ 0.5 of nginx serving the same bytes, with p99 ≤ 20 ms; a bare Node `http`
//     server answering those bytes (one process) shows how close Node itself gets;
//   - a signed-in session read (GET /api/auth/get-session) at ≥ 5,000 requests/s;
//   - the Dashboard, Books (10,000 books, first page) and Members with ten signed-in people loading pages at once,
//     each in a workspace of their own with 10,000 books: p95 ≤ 100 ms; beside it, the same people loading it one at
//     a time, what a page costs on its own (ten at once wait behind each other's renders);
//   - a cold start on an existing embedded database ≤ 1.5 s to the first healthy answer, beside a bare Node start.
// Nothing here is asserted in `npm test`: a slow machine shows as such beside the ceilings, it fails nothing.
// Settings: BENCH_DURATION (seconds per row, default 10); BENCH_PEOPLE (default 10).

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { installedAppNames } from '../scripts/generate-apps.ts'
import { startAppServer } from '../tests/support/app-server.ts'
import { createThrowawayPostgresDatabase } from '../tests/support/postgres-database.ts'
import { importBenchBooks, signUpBenchAccount, upgradeBenchWorkspace, withFreshSessionCopy } from './bench-account.ts'
import { measureColdStart } from './cold-start.ts'
import {
  describeHeadroom,
  durationSetting,
  fail,
  freePort,
  type Load,
  type Measurement,
  markdownTable,
  measure,
  onExit,
  printTable,
  rawBody,
  reportFailures,
  startNginxCopies,
  warmupSeconds,
} from './load.ts'

const duration = durationSetting()
const people = Number(process.env.BENCH_PEOPLE || 10)
if (!Number.isInteger(people) || people < 1) fail(`BENCH_PEOPLE must be a whole number of at least 1, got ${people}`)
const peopleLabel = people === 1 ? '1 person' : `${people} people`
const bookCount = 10_000
const goals = {
  publicShareOfNginx: 0.5,
  publicP99Ms: 20,
  sessionReadsPerSecond: 5_000,
  consoleP95Ms: 100,
  coldStartMs: 1_500,
}
const publicPages = [
  { name: 'landing /en/', path: '/en/' },
  { name: 'docs page', path: '/en/docs/development/testing' },
]
const consolePages = [
  { name: 'Dashboard /en/console', path: '/en/console' },
  { name: `Books /en/console/books (${bookCount} books)`, path: '/en/console/books', app: 'books' },
  { name: 'Members /en/console/organization/members', path: '/en/console/organization/members' },
]

interface Engine {
  name: string
  env: Record<string, string>
  drop(): Promise<void>
}

async function embeddedEngine(): Promise<Engine> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-bench-goals-'))
  const drop = async () => rmSync(dataDir, { recursive: true, force: true })
  onExit(() => void drop())
  return { name: 'embedded', env: { DATA_DIR: dataDir }, drop }
}

async function postgresEngine(): Promise<Engine | undefined> {
  const adminUrl = process.env.DATABASE_URL ?? ''
  const redisUrl = process.env.REDIS_URL ?? ''
  if (!adminUrl.startsWith('postgres') || !redisUrl.startsWith('redis')) return undefined
  const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_bench_goals')
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-bench-goals-'))
  return {
    name: 'PostgreSQL + Redis',
    env: {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      DATA_DIR: dataDir,
      BETTER_AUTH_SECRET: 'a-secret-for-the-goals-bench-0123456789abcdef',
    },
    drop: async () => {
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A bare Node `http` server in a process of its own, answering `/<index>` with the index-th body as HTML. */
async function startBareNode(bodies: Buffer[]): Promise<{ url: string; stop(): Promise<void> }> {
  const folder = mkdtempSync(path.join(tmpdir(), 'hatch-bench-bare-'))
  onExit(() => rmSync(folder, { recursive: true, force: true }))
  const files = bodies.map((body, index) => {
    const file = path.join(folder, `${index}.html`)
    writeFileSync(file, body)
    return file
  })
  const port = await freePort()
  const script = `
    const bodies = ${JSON.stringify(files)}.map((file) => require('node:fs').readFileSync(file))
    require('node:http').createServer((request, response) => {
      const body = bodies[Number(request.url.slice(1))]
      if (!body) return response.writeHead(404).end()
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length })
      response.end(body)
    }).listen(${port}, '127.0.0.1')`
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' })
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  onExit(() => void stop())
  const url = `http://localhost:${port}`
  for (let waited = 0; ; waited += 20) {
    if ((await rawBody(`${url}/0`).catch(() => undefined))?.status === 200) break
    if (waited > 10_000) fail('The bare Node server did not answer within 10 s.')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return { url, stop }
}

/** The rows of one engine: public pages beside nginx and bare Node, the session read, the console for ten people. */
async function measureEngine(engine: Engine): Promise<Measurement[]> {
  const port = await freePort()
  const origin = `http://localhost:${port}`
  console.log(`\n## ${engine.name}\n`)
  const server = await startAppServer({
    port,
    env: { ...engine.env, APP_URL: origin, AUTH_SIGN_UP_LIMIT: String(people * 2) },
    keepOutput: false,
  })
  onExit(() => void server.stop())
  const label = (name: string) => `${name}, ${engine.name}`
  const rows: Measurement[] = []
  try {
    const samples = publicPages.map((page) => ({ name: page.name, url: `${origin}${page.path}` }))
    const copies = await startNginxCopies(samples)
    const bodies = await Promise.all(samples.map(async (sample) => (await rawBody(sample.url)).body))
    const bare = await startBareNode(bodies)
    for (const [index, sample] of samples.entries()) {
      const app = await measure({ name: label(sample.name), url: sample.url }, duration)
      const copy = copies.loads[index] as Load
      const nginx = await measure({ ...copy, name: label(copy.name) }, duration)
      const node = await measure(
        { name: label(`${sample.name} from bare Node (1 process)`), url: `${bare.url}/${index}` },
        duration,
      )
      const ceiling = nginx.result.requestsPerSecond
      for (const row of [app, nginx, node]) row.ceilingRps = ceiling
      app.goal = {
        text: `≥ ${goals.publicShareOfNginx}× nginx, p99 ≤ ${goals.publicP99Ms} ms`,
        met:
          app.result.requestsPerSecond >= goals.publicShareOfNginx * ceiling &&
          app.result.latencyMs.p99 <= goals.publicP99Ms,
      }
      rows.push(app, nginx, node)
    }
    await bare.stop()
    await copies.stop()

    const installed = installedAppNames()
    const signUpStarted = performance.now()
    const cookies: string[] = []
    for (let person = 0; person < people; person++) cookies.push(await signUpBenchAccount(origin))
    if (installed.includes('billing')) {
      for (const cookie of cookies) await upgradeBenchWorkspace(origin, cookie)
    }
    if (installed.includes('books')) {
      // One at a time: each import is a background job, and ten at once would only queue behind each other.
      for (const cookie of cookies) await importBenchBooks(origin, cookie, bookCount)
    }
    console.log(
      `${peopleLabel} signed up${installed.includes('books') ? `, each with ${bookCount} books,` : ''} in ` +
        `${((performance.now() - signUpStarted) / 1000).toFixed(1)} s.`,
    )

    const session = await measure(
      {
        name: label('session read (GET /api/auth/get-session, signed in)'),
        url: `${origin}/api/auth/get-session`,
        headers: { cookie: await withFreshSessionCopy(origin, cookies[0] as string) },
        countStatuses: true,
      },
      duration,
    )
    session.goal = {
      text: `≥ ${goals.sessionReadsPerSecond} requests/s`,
      met: session.result.requestsPerSecond >= goals.sessionReadsPerSecond,
    }
    rows.push(session)

    for (const page of consolePages) {
      if (page.app && !installed.includes(page.app)) continue
      // A session copy lasts SESSION_CACHE_SECONDS: each row starts with new ones, as browsers would hold them.
      const fresh = await Promise.all(cookies.map((cookie) => withFreshSessionCopy(origin, cookie)))
      // What one page costs when nobody else is loading one: the same people (the first is the app admin, whose
      // Dashboard holds more) taking turns on one connection. At once, each waits for the renders ahead of it, so
      // their p95 is about this times the people per process. No goal of its own; it shows that floor.
      if (people > 1) {
        rows.push(
          await measure(
            {
              name: label(`${page.name}, ${peopleLabel} one at a time`),
              url: `${origin}${page.path}`,
              cookies: fresh,
              connections: 1,
              countStatuses: true,
            },
            duration,
          ),
        )
      }
      const row = await measure(
        {
          name: label(`${page.name}, ${peopleLabel} at once`),
          url: `${origin}${page.path}`,
          cookies: fresh,
          connections: people,
          // A page that lost its session redirects to sign-in: counted as a failure, never as a quick answer.
          countStatuses: true,
        },
        duration,
      )
      row.goal = { text: `p95 ≤ ${goals.consoleP95Ms} ms`, met: row.result.latencyMs.p95 <= goals.consoleP95Ms }
      rows.push(row)
    }
  } finally {
    await server.stop()
    await engine.drop()
  }
  return rows
}

async function main(): Promise<void> {
  console.log('Hatch: the goals of issue 55')
  console.log(`Node:     ${process.version}`)
  console.log(`Duration: ${duration} s per row, after ${warmupSeconds} s uncounted warm-up`)
  const engines = [await embeddedEngine()]
  const postgres = await postgresEngine()
  if (postgres) engines.push(postgres)
  else console.log('PostgreSQL: not measured (set DATABASE_URL and REDIS_URL to measure it too).')

  const rows: Measurement[] = []
  for (const engine of engines) rows.push(...(await measureEngine(engine)))

  console.log('\n## Cold start\n')
  const cold = await measureColdStart()
  console.log('')
  printTable(rows, 0)
  console.log(`\n${describeHeadroom(rows)}\n`)
  console.log(
    markdownTable(
      ['cold start on an existing embedded database', 'ms (median of 3)', 'goal', 'met'],
      [false, true, false, false],
      [
        [
          'Hatch, to the first healthy answer',
          cold.appMs.toFixed(0),
          `≤ ${goals.coldStartMs} ms`,
          cold.appMs <= goals.coldStartMs ? 'yes' : 'NO',
        ],
        ['Hatch, to the landing page asked for right after', cold.firstPageMs.toFixed(0), '', ''],
        ['bare Node http server, to its first answer', cold.bareNodeMs.toFixed(0), '', ''],
      ],
    ),
  )
  if (reportFailures(rows)) process.exitCode = 1
}

await main()
