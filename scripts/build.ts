import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib'
import { compileMessages } from './i18n.ts'
import { assertSupportedNode, buildIsStale, clientDir, root, runNodeBin } from './project.ts'
import { filesUnder, worthCompressing } from './static-files.ts'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export async function build(): Promise<void> {
  await compileMessages()
  // Always a production build: an inherited NODE_ENV (a shell's "development", Vitest's "test") would make Vite
  // emit development JSX that the production React runtime cannot render.
  runNodeBin('node_modules/vite/bin/vite.js', ['build'], { ...process.env, NODE_ENV: 'production' })
  await precompressAssets(clientDir)
}

/**
 * Builds when the sources are newer than the build. Processes that find it stale at once (test files starting servers
 * side by side) take turns: the later ones wait for the first build and then find nothing left to do, where two
 * builds writing into `dist/` at once would leave neither whole. True when this process built.
 */
export async function buildWhenStale(announce?: () => void): Promise<boolean> {
  if (!buildIsStale()) return false
  const release = await takeBuildLock()
  try {
    if (!buildIsStale()) return false
    announce?.()
    await build()
    return true
  } finally {
    release()
  }
}

/** Outside `dist/`, which the build empties; a lock whose process has ended is taken over. */
const buildLock = path.join(root, 'node_modules/.cache/hatch-build.lock')

async function takeBuildLock(): Promise<() => void> {
  mkdirSync(path.dirname(buildLock), { recursive: true })
  for (;;) {
    try {
      const handle = openSync(buildLock, 'wx')
      writeFileSync(handle, String(process.pid))
      closeSync(handle)
      return () => rmSync(buildLock, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (!lockHolderIsAlive()) rmSync(buildLock, { force: true })
    else await sleep(250)
  }
}

function lockHolderIsAlive(): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(buildLock, 'utf8'))
  } catch {
    return true // removed meanwhile, or not written yet: try again
  }
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Brotli (highest quality) and gzip copies beside every client file worth compressing, which the production server
 * sends to browsers that accept them (scripts/serve.ts): compressed once here rather than on every request or start.
 */
async function precompressAssets(dir: string): Promise<void> {
  const files = filesUnder(dir).filter((file) => worthCompressing(file, statSync(file).size))
  await Promise.all(
    files.map(async (file) => {
      const bytes = readFileSync(file)
      const [brotli, gzipped] = await Promise.all([
        brotliAsync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzipAsync(bytes, { level: 9 }),
      ])
      writeFileSync(`${file}.br`, brotli)
      writeFileSync(`${file}.gz`, gzipped)
    }),
  )
}

if (import.meta.main) {
  assertSupportedNode()
  await build()
}
