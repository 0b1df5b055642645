// The servers scripts/minimal-kit.ts starts in a copy of the project: the production server as an operator starts it
// (for the cold start and the first load), and the end-to-end server (tests/e2e/server.ts) the smoke test runs on.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { testPorts } from '../../tests/support/ports.ts'

/** The end-to-end server's ports for a kit: none of the end-to-end run's, so the two may run side by side. */
export const kitServerEnv = {
  E2E_PORT: String(testPorts.minimalKitServer),
  E2E_SMTP_PORT: String(testPorts.minimalKitSmtp),
  E2E_DNS_PORT: String(testPorts.minimalKitDns[0]),
  E2E_AI_PORT: String(testPorts.minimalKitAi),
}
export const kitUrl = `http://localhost:${testPorts.minimalKitServer}`

export interface KitServer {
  /** From the spawn to the first answer of the waited-for path. */
  startMs: number
  rssMb(): number
  output(): string
  stop(): Promise<void>
}

/**
 * Starts `script` in `projectDir` with a fresh data folder and compile cache (a cold start, as on a new machine), and
 * waits until `readyPath` answers 200. Redis is left out (rate-limit counters shared with other runs); PostgreSQL only
 * when `databaseUrl` is given.
 */
export async function startKitServer(
  projectDir: string,
  options: { script: string; readyPath: string; databaseUrl?: string },
): Promise<KitServer> {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env
  const scratch = mkdtempSync(path.join(tmpdir(), 'hatch-kit-server-'))
  const env = {
    ...inherited,
    ...kitServerEnv,
    PORT: kitServerEnv.E2E_PORT,
    DATA_DIR: path.join(scratch, 'data'),
    NODE_COMPILE_CACHE: path.join(scratch, 'compile-cache'),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  }
  const started = performance.now()
  const child = spawn(process.execPath, [options.script], { cwd: projectDir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const stop = async () => {
    await stopChild(child, exited)
    rmSync(scratch, { recursive: true, force: true })
  }
  try {
    await waitForAnswer(`${kitUrl}${options.readyPath}`, child, 180_000)
  } catch (error) {
    await stop()
    throw new Error(`${(error as Error).message}\n${output.slice(-4000)}`)
  }
  const startMs = performance.now() - started
  return { startMs, rssMb: () => residentMb(child.pid ?? 0), output: () => output, stop }
}

async function waitForAnswer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server ended before ${url} answered`)
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) return
    await sleep(20)
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`)
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const gone = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)])
  if (!gone) {
    child.kill('SIGKILL')
    await exited
  }
}

/** The process's resident memory, as the system counts it. */
function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN)
  return kb / 1024
}
