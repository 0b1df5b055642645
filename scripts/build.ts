import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib'
import { compileMessages } from './i18n.ts'
import { assertSupportedNode, clientDir, runNodeBin } from './project.ts'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
const compressible = /\.(js|mjs|css|svg|json|txt|html|xml|wasm)$/

export async function build(): Promise<void> {
  await compileMessages()
  // Always a production build: an inherited NODE_ENV (a shell's "development", Vitest's "test") would make Vite
  // emit development JSX that the production React runtime cannot render.
  runNodeBin('node_modules/vite/bin/vite.js', ['build'], { ...process.env, NODE_ENV: 'production' })
  await precompressAssets(path.join(clientDir, 'assets'))
}

/**
 * Brotli (highest quality) and gzip copies beside every build asset, which the production server sends to browsers
 * that accept them (scripts/serve.ts): compressed once here rather than on every request.
 */
async function precompressAssets(dir: string): Promise<void> {
  const files = readdirSync(dir)
    .filter((name) => compressible.test(name))
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).size >= 1024)
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
