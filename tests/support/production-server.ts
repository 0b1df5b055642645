import { type ChildProcess, spawn } from 'node:child_process'

export interface StartedProductionServer {
  process: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

/**
 * `node scripts/start.ts` on the embedded database in `dataDir` (DATABASE_URL is left out on purpose: a clean close
 * matters most there), resolved once it listens.
 */
export function startProductionServer(
  port: number,
  dataDir: string,
  extraEnv: Record<string, string> = {},
): Promise<StartedProductionServer> {
  const { DATABASE_URL: _ignored, ...env } = process.env
  const server = spawn(process.execPath, ['scripts/start.ts'], {
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      HATCH_DEBUG_ROUTES: '1',
      NODE_ENV: 'production',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  server.stdout?.on('data', (chunk) => {
    output += chunk
  })
  server.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const poll = setInterval(() => {
      if (output.includes('is listening')) {
        clearInterval(poll)
        resolve({ process: server, output: () => output, exited })
      } else if (server.exitCode !== null || Date.now() - started > 120_000) {
        clearInterval(poll)
        reject(new Error(`the server did not start:\n${output}`))
      }
    }, 50)
  })
}
