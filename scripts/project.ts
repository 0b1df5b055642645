// Helpers shared by the project's scripts (run by Node >= 22.12 with type stripping, no bundler).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

export const root = path.resolve(import.meta.dirname, '..')
export const serverBundle = path.join(root, 'dist/server/server.js')
export const clientDir = path.join(root, 'dist/client')

/**
 * The type check as every script runs it, from the project's folder: TypeScript 7 with one checker. Its default, four
 * checkers that share the files out, resolves the types they have in common in each: on these 2-core machines one
 * checker takes about half the CPU time (14 s against 26 s) and less wall time too (docs/decisions/043).
 */
export const typeCheckCommand = ['node_modules/typescript-7/bin/tsc', '--noEmit', '--checkers', '1'] as const

const minimumNode = [22, 12] as const

/** npm runs scripts with the project's own Node (the `node` dev dependency); this catches a bare `node scripts/…`. */
export function assertSupportedNode(): void {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
  if (major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1])) return
  console.error(
    `Hatch needs Node.js >= ${minimumNode.join('.')}; this is ${process.version}.\n` +
      'Run it through npm (npm start, npm test), which uses the Node.js installed in node_modules.',
  )
  process.exit(1)
}

/** Runs a Node program from node_modules with this same Node binary; exits when it fails. */
export function runNodeBin(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(process.execPath, [path.join(root, script), ...args], { cwd: root, stdio: 'inherit', env })
  if (result.status !== 0) {
    console.error(`\n${script} ${args.join(' ')} failed (exit code ${result.status ?? result.signal}).`)
    process.exit(result.status ?? 1)
  }
}

/**
 * Memory settings for the app server (docs/decisions/019-server-memory.md), applied at start-up because that is the
 * only time V8 and the C library read them:
 * - V8: a smaller young generation and slower heap growth keep the heap close to what it really holds;
 * - glibc's malloc: two arenas, and blocks of 128 KiB or more mapped on their own, so memory freed after start-up
 *   (the embedded database's files, a large import) goes back to the system. An operator's own values win.
 */
export const serverHeapFlags = ['--max-semi-space-size=8', '--heap-growing-percent=10']
export const serverMallocSettings = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' }

/**
 * Replaces this process (same PID, so service managers and signals are unaffected) with itself started with the
 * memory settings, when it was not. Where the platform cannot (Windows), it runs on without them.
 */
export function restartWithServerMemorySettings(): void {
  if (serverHeapFlags.every((flag) => process.execArgv.includes(flag))) return
  if (typeof process.execve !== 'function') return
  const argv = [process.execPath, ...serverHeapFlags, ...process.execArgv, ...process.argv.slice(1)]
  process.execve(process.execPath, argv, { ...serverMallocSettings, ...compileCacheSetting(), ...process.env })
}

/**
 * The compile cache the scripts turn on (`enableCompileCache`), on from the restarted process's first line: its own
 * TypeScript (this file, start.ts) then comes with its types already stripped, so Node does not load its TypeScript
 * stripper at all, a twentieth of a second of a cold start.
 */
function compileCacheSetting(): { NODE_COMPILE_CACHE?: string } {
  return process.env.NODE_DISABLE_COMPILE_CACHE ? {} : { NODE_COMPILE_CACHE: path.join(tmpdir(), 'node-compile-cache') }
}

/** In the environment of a process that `restartProcess` started over right after it built the app. */
export const freshBuildMark = 'HATCH_FRESH_BUILD'

/**
 * Starts this process over (same PID, arguments and flags), with `extraEnv` added to its environment. Where the
 * platform cannot (Windows), it runs on.
 */
export function restartProcess(extraEnv: Record<string, string> = {}): void {
  if (typeof process.execve !== 'function') return
  const argv = [process.execPath, ...process.execArgv, ...process.argv.slice(1)]
  process.execve(process.execPath, argv, { ...process.env, ...extraEnv })
}

const buildInputs = ['src', 'messages', 'public', 'content', 'package.json', 'vite.config.ts', 'project.inlang']
const generated = new Set([path.join(root, 'src/paraglide'), path.join(root, 'src/routeTree.gen.ts')])

function newestMtime(target: string): number {
  if (!existsSync(target) || generated.has(target)) return 0
  const stats = statSync(target)
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = stats.mtimeMs
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)))
  return newest
}

/** True when there is no build, or a source file changed after the last one. */
export function buildIsStale(): boolean {
  if (!existsSync(serverBundle)) return true
  const builtAt = statSync(serverBundle).mtimeMs
  return buildInputs.some((input) => newestMtime(path.join(root, input)) > builtAt)
}

/**
 * Runs an operator command against the app's database through the server bundle (built first when stale): the
 * task answers the exit code; a bad environment prints its message, not a stack. `open: false` leaves the database
 * to the task, unopened and unmigrated (a backup copies it as it is; a restore writes an empty one).
 */
export async function runOperatorTask(
  // biome-ignore lint/suspicious/noExplicitAny: the bundle's operatorTasks, typed where the server defines them.
  task: (operatorTasks: any) => Promise<number>,
  options: { open?: boolean } = {},
): Promise<never> {
  assertSupportedNode()
  if (buildIsStale()) await (await import('./build.ts')).buildWhenStale()
  const { lifecycle, operatorTasks } = await import(pathToFileURL(serverBundle).href)
  const open = options.open !== false
  let exitCode = 1
  try {
    if (open) await lifecycle.ensureServerReady({ jobs: 'none' })
    else lifecycle.getEnv()
    exitCode = await task(operatorTasks)
  } catch (error) {
    console.error(
      error instanceof Error && /^(EnvError|BackupInvalid|RestoreRefused)$/.test(error.name) ? error.message : error,
    )
  } finally {
    if (open) await lifecycle.closeServerResources().catch(() => undefined)
  }
  process.exit(exitCode)
}
