// The server under soak: the production build, started as `npm start` starts it (same memory settings), on a
// database nobody else uses: a fresh PostgreSQL database when DATABASE_URL is set, else a fresh embedded PGlite folder.
import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { SMTPServer } from 'smtp-server'
import { root, serverHeapFlags, serverMallocSettings } from '../../scripts/project.ts'
import { createThrowawayPostgresDatabase } from '../../tests/support/postgres-database.ts'

export interface SoakDatabase {
  engine: 'PostgreSQL' | 'PGlite'
  /** The fresh PostgreSQL database's URL; undefined for PGlite. */
  url?: string
  /** DATA_DIR of the server (the embedded database lives in its `pglite` folder). */
  dataDir: string
  remove(): Promise<void>
}

export async function createSoakDatabase(adminUrl: string | undefined): Promise<SoakDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-soak-'))
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true })
  if (!adminUrl) return { engine: 'PGlite', dataDir, remove: async () => removeDataDir() }
  const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_soak')
  return {
    engine: 'PostgreSQL',
    url: database.url,
    dataDir,
    remove: async () => {
      await database.drop()
      removeDataDir()
    },
  }
}

export interface SoakServer {
  pid: number
  /** Emails the app delivered to the soak's SMTP server (sign-up confirmations). */
  emailsDelivered(): number
  origin: string
  logFile: string
  /** Resident memory in MB (VmRSS from /proc), or undefined once the process is gone. */
  residentMegabytes(): number | undefined
  exited(): boolean
  /** SIGTERM, then waits for the graceful stop; resolves with the exit code (null after a forced kill). */
  stop(): Promise<number | null>
}

/** The rate limits a real deployment keeps are per client address; every soak request comes from 127.0.0.1. */
const raisedLimits = {
  AUTH_SIGN_IN_LIMIT: '1000000',
  AUTH_SIGN_UP_LIMIT: '1000000',
  AUTH_REQUEST_LIMIT: '1000000',
  AUTH_EMAIL_LIMIT: '1000000',
  INSIGHTS_BEACONS_PER_MINUTE: '0',
}

/** A real SMTP server that accepts and counts every message, as a mail relay would (production sends email). */
async function startMailSink(port: number): Promise<{ received(): number; close(): Promise<void> }> {
  let received = 0
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      stream.on('data', () => undefined)
      stream.on('end', () => {
        received++
        done()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject)
    smtp.listen(port, '127.0.0.1', resolve)
  })
  return { received: () => received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) }
}

export async function startSoakServer(options: {
  port: number
  smtpPort: number
  database: SoakDatabase
}): Promise<SoakServer> {
  const mail = await startMailSink(options.smtpPort)
  const logFile = path.join(options.database.dataDir, 'server.log')
  const log = createWriteStream(logFile)
  // The serve script, not scripts/start.ts: that one rebuilds when a source is newer than the build, which another
  // person's edit during the soak would trigger.
  const serveScript = pathToFileURL(path.join(root, 'scripts/serve.ts')).href
  const startServer = `await (await import(${JSON.stringify(serveScript)})).startProductionServer()`
  const env: NodeJS.ProcessEnv = {
    ...serverMallocSettings,
    ...process.env,
    ...raisedLimits,
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATA_DIR: options.database.dataDir,
    DATABASE_URL: options.database.url ?? '',
    // The local payment provider: checkouts settle on this machine, no money and no outside service. Whichever payment
    // apps are installed, none is configured (an empty variable counts as unset).
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    POLAR_ACCESS_TOKEN: '',
    POLAR_WEBHOOK_SECRET: '',
    LEMONSQUEEZY_API_KEY: '',
    LEMONSQUEEZY_WEBHOOK_SECRET: '',
    PADDLE_API_KEY: '',
    PADDLE_WEBHOOK_SECRET: '',
    SMTP_URL: `smtp://127.0.0.1:${options.smtpPort}`,
  }
  // The address the traffic uses (bench/soak/traffic.ts): a page or a post on another host would be redirected or
  // refused (src/server/one-address.ts).
  const origin = `http://127.0.0.1:${options.port}`
  env.APP_URL = origin
  const child: ChildProcess = spawn(process.execPath, [...serverHeapFlags, '--input-type=module', '-e', startServer], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.pipe(log, { end: false })
  child.stderr?.pipe(log, { end: false })
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const server: SoakServer = {
    pid: child.pid ?? 0,
    emailsDelivered: mail.received,
    origin,
    logFile,
    residentMegabytes: () => {
      try {
        const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
        return match ? Number(match[1]) / 1024 : undefined
      } catch {
        return undefined
      }
    },
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: async () => {
      if (!server.exited()) child.kill('SIGTERM')
      const forced = setTimeout(() => child.kill('SIGKILL'), 30_000)
      const code = await exit
      clearTimeout(forced)
      log.end()
      await mail.close()
      return code
    },
  }
  const started = Date.now()
  while (Date.now() - started < 120_000) {
    if (server.exited()) throw new Error(`The server exited while starting; its log:\n${tailOf(logFile)}`)
    try {
      const health = await fetch(`http://127.0.0.1:${options.port}/api/health`)
      if (health.status === 200) return server
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await server.stop()
  throw new Error(`The server did not answer /api/health within 120 s; its log:\n${tailOf(logFile)}`)
}

/** The last lines of a log, for a failure message. */
export function tailOf(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return '(no log)'
  }
}
