import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect } from './fixtures'

export interface SecondServer {
  origin: string
  stop(): Promise<void>
}

/**
 * Another server from the build the other tests use, as it is (never rebuilt from here under the first server's
 * feet), with its own embedded database and the environment a test gives it: how a story that needs other settings
 * (no AI, another payment provider) runs beside the main server.
 */
export async function startSecondServer(options: {
  port: number
  set?: Record<string, string>
  unset?: string[]
}): Promise<SecondServer> {
  const origin = `http://localhost:${options.port}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-second-'))
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.set, PORT: String(options.port), DATA_DIR: dataDir }
  // Without CI's Redis too: sharing it, this server's sign-up limit (the default, a few a minute) counted the main
  // server's sign-ups from the same address, and the story's own sign-up was refused with 429 now and then.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'APP_URL', ...(options.unset ?? [])]) delete env[name]
  const serveBuild =
    "const { startProductionServer } = await import('./scripts/serve.ts'); await startProductionServer()"
  const server: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', serveBuild], {
    env,
    stdio: 'ignore',
  })
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${origin}/api/health`)).status
        } catch {
          return 0
        }
      },
      { timeout: 60_000 },
    )
    .toBe(200)
  return {
    origin,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve))
        server.kill('SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
