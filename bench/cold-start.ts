// Cold start: the built production server on an existing embedded database, from the process's start to its first
// healthy answer, beside a bare Node `http` server started the same way and timed the same way (issue 55), so that
// a slow machine shows as such. Used by bench/http.ts and bench/goals.ts.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildIsStale, root } from '../scripts/project.ts'
import { fail, freePort, onExit } from './load.ts'

/** Polls `url` until it answers 200; resolves with the ms since `started`, or fails after 60 s or an early exit. */
async function untilHealthy(
  url: string,
  started: number,
  child: ReturnType<typeof spawn>,
  what: string,
  stop: () => Promise<void>,
): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) fail(`${what} exited with code ${child.exitCode}.`)
    if (performance.now() - started > 60_000) {
      await stop()
      fail(`${what} did not answer ${url} within 60 s.`)
    }
    try {
      if ((await fetch(url)).status === 200) return performance.now() - started
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function stopper(child: ReturnType<typeof spawn>): () => Promise<void> {
  onExit(() => {
    if (child.exitCode === null) child.kill('SIGTERM')
  })
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
}

/**
 * Starts the built production server on `dataDir` and resolves with the ms until /api/health answers 200, and until
 * the landing page, asked for right after, has come.
 */
async function timeStart(dataDir: string): Promise<{ ms: number; firstPageMs: number; stop: () => Promise<void> }> {
  const port = await freePort()
  // What `npm start` runs, with its restart under the memory settings and its look at whether the build is current.
  if (buildIsStale()) fail('The build is older than the sources: build first (npm run build), or the start would.')
  const started = performance.now()
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.ts')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      WEB_CONCURRENCY: '1',
      DATABASE_URL: '',
      REDIS_URL: '',
      APP_URL: '',
    },
    stdio: 'ignore',
  })
  const stop = stopper(child)
  const ms = await untilHealthy(`http://127.0.0.1:${port}/api/health`, started, child, 'The cold-start server', stop)
  // A health check answers before the page router has loaded (decision 047): the first page shows what it still costs.
  const page = await fetch(`http://localhost:${port}/en/`)
  await page.arrayBuffer()
  if (page.status !== 200) fail(`The cold-start server's first page answered ${page.status}.`)
  return { ms, firstPageMs: performance.now() - started, stop }
}

/** A bare Node `http` server, started by the same Node as the app and timed the same way. */
async function bareNodeStart(): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(
    process.execPath,
    ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`],
    { stdio: 'ignore' },
  )
  const stop = stopper(child)
  const ms = await untilHealthy(`http://127.0.0.1:${port}/`, started, child, 'The bare Node server', stop)
  await stop()
  return ms
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/**
 * The median of `runs` cold starts on an existing embedded database (created and migrated by a first start, which is
 * not counted), each followed by a bare Node server's start.
 */
export async function measureColdStart(runs = 3): Promise<{ appMs: number; firstPageMs: number; bareNodeMs: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-bench-cold-'))
  try {
    await (await timeStart(dataDir)).stop()
    const app: number[] = []
    const firstPage: number[] = []
    const bare: number[] = []
    for (let run = 0; run < runs; run++) {
      const start = await timeStart(dataDir)
      await start.stop()
      app.push(start.ms)
      firstPage.push(start.firstPageMs)
      bare.push(await bareNodeStart())
    }
    return { appMs: median(app), firstPageMs: median(firstPage), bareNodeMs: median(bare) }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
