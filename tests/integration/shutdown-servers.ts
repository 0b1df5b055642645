// What the shutdown tests share: a production server on a throwaway database with a short shutdown timeout, and how
// long it takes to stop.
import { afterAll } from 'vitest'
import { type AppServer, serverStorage, startAppServer } from '../support/app-server'

export const shutdownTimeoutMs = 2_000

/** How long after SIGTERM the process exited; it is killed, and the test fails, if still running after `limitMs`. */
export async function stopWithin(server: AppServer, limitMs: number): Promise<{ code: number | null; ms: number }> {
  const started = Date.now()
  server.process.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), limitMs)
  })
  const code = await Promise.race([server.exited, late])
  clearTimeout(timer)
  if (code === 'late') {
    server.process.kill('SIGKILL')
    throw new Error(`still running ${limitMs} ms after SIGTERM:\n${server.output().slice(-3000)}`)
  }
  return { code, ms: Date.now() - started }
}

export const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

export async function serverOn(engine: string, port: number, env: Record<string, string> = {}): Promise<AppServer> {
  const storage = await serverStorage(engine, 'shutdown', cleanups)
  const server = await startAppServer({
    port,
    env: { ...storage, SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs), ...env },
  })
  cleanups.push(() => void server.process.kill('SIGKILL'))
  return server
}
