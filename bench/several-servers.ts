// Several app servers against one, on PostgreSQL and Redis (issue 28): the same requests to one production server,
// to that server with OpenTelemetry tracing on, and to three servers behind nginx started with the shipped
// deploy/nginx.conf; beside the ceiling, nginx serving the landing page's bytes. Run by `npm run bench` after
// bench/http.ts. It starts everything itself and needs:
//   DATABASE_URL  a PostgreSQL URL allowed to create databases (a throwaway one is created, and dropped at the end)
//   REDIS_URL     a Redis every server shares
// and Debian's nginx. Without DATABASE_URL and REDIS_URL it says so and measures nothing. BENCH_DURATION as in http.ts.

import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type AppServer, startAppServer } from '../tests/support/app-server.ts'
import { shippedNginxSite, startNginx } from '../tests/support/nginx.ts'
import { createThrowawayPostgresDatabase } from '../tests/support/postgres-database.ts'
import {
  describeHeadroom,
  durationSetting,
  freePort,
  type Load,
  type Measurement,
  measure,
  onExit,
  printTable,
  reportFailures,
  startNginxCeiling,
  warmupSeconds,
} from './load.ts'

const bookCount = 40
const password = 'bench-several-servers-9'

const adminUrl = process.env.DATABASE_URL ?? ''
const redisUrl = process.env.REDIS_URL ?? ''
if (!adminUrl.startsWith('postgres') || !redisUrl.startsWith('redis')) {
  console.log(
    '\nSeveral servers: not measured. Set DATABASE_URL (PostgreSQL) and REDIS_URL to compare one server with three ' +
      'behind nginx, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 ' +
      'npm run bench',
  )
  process.exit(0)
}
const duration = durationSetting()

/** Takes the cookies a response sets, as a browser would keep them. */
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => !pair.endsWith('='))
    .join('; ')

async function postJson(url: string, origin: string, body: unknown, cookie?: string): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  })
  if (response.status !== 200) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`)
  return response
}

/** An OTLP/HTTP receiver that accepts every export and counts them: tracing at its full cost, with nowhere to wait. */
async function startTraceSink(): Promise<{ url: string; exports(): number; close(): Promise<void> }> {
  let exports = 0
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      exports++
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

async function main(): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'hatch-bench-several-'))
  onExit(() => rmSync(folder, { recursive: true, force: true }))
  const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_bench')
  const servers: AppServer[] = []
  const stopAll: (() => Promise<unknown>)[] = []
  try {
    const proxyPort = await freePort()
    const serverPorts = [await freePort(), await freePort(), await freePort()]
    const appUrl = `http://localhost:${proxyPort}`
    const serverEnv = (extra: Record<string, string> = {}) => ({
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      BETTER_AUTH_SECRET: 'a-secret-every-bench-server-shares-0123456789',
      APP_URL: appUrl,
      TRUST_PROXY: 'loopback',
      WEB_CONCURRENCY: '1',
      DATA_DIR: folder,
      ...extra,
    })
    const start = async (index: number, extra?: Record<string, string>) => {
      const server = await startAppServer({ port: serverPorts[index] ?? 0, env: serverEnv(extra), keepOutput: false })
      servers[index] = server
      // Stopped on Ctrl-C too, when the finally below does not run.
      onExit(() => void server.stop())
      return server
    }

    // One server: an account with a workspace of books, signed in as a browser is.
    let one = await start(0)
    const signUp = await postJson(`${one.url}/api/auth/sign-up/email`, appUrl, {
      name: 'Bench',
      email: `bench-${Date.now()}@example.com`,
      password,
    })
    // As a browser holds it: the token and the signed session copy a session check adds. The copy lasts
    // SESSION_CACHE_SECONDS and wrk keeps the cookie it is given, so each group of rows starts with a new one.
    const token = cookiesOf(signUp)
    const browserCookie = async (origin: string) => {
      const check = await fetch(`${origin}/api/auth/get-session`, { headers: { cookie: token } })
      return [token, cookiesOf(check)].filter(Boolean).join('; ')
    }
    let cookie = await browserCookie(one.url)
    const csv = ['title,authors,isbn,published_year,language,tags']
    for (let index = 0; index < bookCount; index++) csv.push(`The River ${index},Author ${index},,2001,en,bench`)
    await postJson(`${one.url}/api/trpc/books.import`, appUrl, { json: { csv: csv.join('\n'), dryRun: false } }, cookie)
    const booksList = `/api/trpc/books.list?input=${encodeURIComponent(JSON.stringify({ json: { limit: 25 } }))}`
    const rowsFor = (label: string, origin: string): Load[] => [
      { name: `landing /en/ (cached SSR), ${label}`, url: `${origin}/en/` },
      { name: `get-session (signed in), ${label}`, url: `${origin}/api/auth/get-session`, headers: { cookie } },
      { name: `books.list (${bookCount} books), ${label}`, url: `${origin}${booksList}`, headers: { cookie } },
    ]
    const ceiling = await startNginxCeiling(`${one.url}/en/`)
    stopAll.push(() => ceiling.stop())

    console.log('\nHatch: several servers against one (PostgreSQL and Redis)')
    console.log(`Duration: ${duration} s per target, after ${warmupSeconds} s uncounted warm-up\n`)
    const rows: Measurement[] = []
    for (const load of rowsFor('one server', one.url)) rows.push(await measure(load, duration))
    // The console on PostgreSQL, server-rendered (docs/decisions/031): the first account of this database is its app
    // admin, so the Dashboard holds the site's numbers beside the workspace's.
    for (const [name, page] of [
      ['Dashboard /en/console (app admin), one server', '/en/console'],
      [`Books /en/console/books (${bookCount} books), one server`, '/en/console/books'],
    ] as const) {
      cookie = await browserCookie(one.url)
      rows.push(await measure({ name, url: `${one.url}${page}`, headers: { cookie } }, duration))
    }

    // The same server with tracing on, exporting every span to a receiver on this machine.
    await one.stop()
    const sink = await startTraceSink()
    stopAll.push(() => sink.close())
    one = await start(0, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'hatch-bench' })
    cookie = await browserCookie(one.url)
    for (const load of rowsFor('one server, tracing on', one.url)) rows.push(await measure(load, duration))
    await one.stop()
    if (sink.exports() === 0) throw new Error('Tracing was on, yet no span reached the OTLP receiver.')
    const exportsWithTracing = sink.exports()

    // Three servers (the first applies nothing new; the others start together) behind the shipped nginx.conf.
    await start(0)
    await Promise.all([start(1), start(2)])
    const nginx = await startNginx({
      folder,
      site: shippedNginxSite({ listenPort: proxyPort, serverPorts }),
      listenPort: proxyPort,
      readyPath: '/api/health',
      workers: 'auto',
    })
    stopAll.push(() => nginx.stop())
    onExit(() => void nginx.stop())
    cookie = await browserCookie(appUrl)
    for (const load of rowsFor('three servers behind nginx', appUrl)) rows.push(await measure(load, duration))

    const ceilingRow = await measure(ceiling.load, duration)
    rows.push(ceilingRow)
    console.log('')
    printTable(rows, ceilingRow.result.requestsPerSecond)
    console.log(`\n${describeHeadroom(rows)}`)
    console.log(`\nWith tracing on, the server sent ${exportsWithTracing} OTLP exports to the receiver.`)
    if (reportFailures(rows)) process.exitCode = 1
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    for (const stop of stopAll.reverse()) await stop()
    await database.drop()
  }
}

await main()
