// Starts the production server (scripts/start.ts, built first when stale) as its own process, as an operator would.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import superjson from 'superjson'
import { createThrowawayPostgresDatabase } from './postgres-database.ts'

export interface AppServer {
  url: string
  process: ChildProcess
  output(): string
  exited: Promise<number | null>
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/**
 * Where a test's app server keeps its data: a data folder and, on PostgreSQL, a throwaway database on DATABASE_URL's
 * server, named after `name`; both are removed by `cleanups`, which the test runs when it ends.
 */
export async function serverStorage(
  engine: string,
  name: string,
  cleanups: (() => Promise<void> | void)[],
): Promise<{ DATA_DIR: string; DATABASE_URL: string | undefined }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `hatch-${name}-`))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  if (engine !== 'postgres') return { DATA_DIR: dataDir, DATABASE_URL: undefined }
  const database = await createThrowawayPostgresDatabase(process.env.DATABASE_URL ?? '', `hatch_${name}`)
  cleanups.push(() => database.drop())
  return { DATA_DIR: dataDir, DATABASE_URL: database.url }
}

export async function startAppServer(options: {
  port: number
  env: Record<string, string | undefined>
  /** Keep what the server prints after it listens (default), or drop it: a benchmark's millions of request lines. */
  keepOutput?: boolean
}): Promise<AppServer> {
  // The database and Redis are the test's to give: servers that inherited CI's Redis shared rate-limit counters (one
  // client address, one key prefix) with whatever other test file was running beside them.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env
  // A variable the test sets to undefined is left out, not inherited.
  const env = Object.fromEntries(
    Object.entries({ ...inherited, NODE_ENV: 'production', PORT: String(options.port), ...options.env }).filter(
      ([, value]) => value !== undefined,
    ),
  )
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let listening = false
  const collect = (chunk: Buffer) => {
    if (listening && options.keepOutput === false) return
    output += chunk
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      if (output.includes('is listening')) {
        listening = true
        clearInterval(poll)
        resolve()
      } else if (child.exitCode !== null || child.signalCode !== null) {
        clearInterval(poll)
        reject(new Error(`the server did not start:\n${output}`))
      }
    }, 50)
  })
  return {
    url: `http://localhost:${options.port}`,
    process: child,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

/** Signs up through Better Auth as the browser would and answers the session cookie. */
export async function signUp(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password: 'correct-horse-9', name: 'Fault Tester' }),
  })
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`)
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

/** Configuration's settings as the console reads them (`configuration.get`, for an app admin). */
export async function readConfiguration(baseUrl: string, cookie: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}/api/trpc/configuration.get`, { headers: { cookie } })
  const { result } = (await response.json()) as { result?: { data: { json: { settings: Record<string, unknown> } } } }
  if (!result) throw new Error(`configuration.get failed: ${response.status}`)
  return result.data.json.settings
}

/**
 * A write of the core that whoever runs a server can make (its first account is the app admin): Configuration's
 * repository link set to `url`, through HTTP as the console sends it. Each write adds a row to the change log whose
 * new value is `url` (site_setting_changes). Answers the status and body.
 */
export async function setRepositoryLink(
  baseUrl: string,
  cookie: string,
  settings: Record<string, unknown>,
  url: string,
): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const response = await fetch(`${baseUrl}/api/trpc/configuration.update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, cookie },
    body: JSON.stringify(superjson.serialize({ ...settings, sourceRepositoryUrl: url })),
    signal: AbortSignal.timeout(10_000),
  })
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() }
}

/** The app processes a launcher of several processes started (its children). */
export function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => child > 0)
  } catch {
    return []
  }
}
