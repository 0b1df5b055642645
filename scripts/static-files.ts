import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib'

/**
 * The built client's files, held in memory from start-up with their compressed forms, so a request for one costs a
 * map lookup and a write: no stat, no open, no read, no compression. Fingerprinted build assets are
 * cached by browsers for a year and never revalidated; other files (favicon.svg) for an hour, then revalidated by
 * ETag. The whole client build is a few MB; larger single files are left to the disk (`maxFileBytes`).
 */

type Encoding = 'br' | 'gzip'

interface Representation {
  body: Buffer<ArrayBuffer>
  etag: string
}

export interface StaticFile {
  contentType: string
  cacheControl: string
  identity: Representation
  br?: Representation
  gzip?: Representation
}

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
}

/** Worth compressing: text formats (images and fonts are compressed already), past a few hundred bytes. */
const compressible = /\.(js|mjs|css|html|json|map|txt|xml|svg|webmanifest|wasm)$/
export function worthCompressing(file: string, bytes: number): boolean {
  return compressible.test(file) && bytes >= 256
}

const immutableCaching = 'public, max-age=31536000, immutable'
const revalidatedCaching = 'public, max-age=3600'

function representation(body: Buffer<ArrayBuffer>, suffix: string): Representation {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22)
  return { body, etag: `"${hash}${suffix}"` }
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/**
 * Reads every file under `dir` as a URL path → file map. A build asset's `.br` and `.gz` siblings (scripts/build.ts)
 * become its compressed forms (the build writes them for every file worth compressing); one without them (a file copied
 * into the build by hand) is compressed here, once. The files are read one after another without blocking: the server
 * reading them (0.1-0.3 s for the whole build) answers other requests meanwhile.
 */
export async function loadStaticFiles(
  dir: string,
  options: { maxFileBytes?: number } = {},
): Promise<Map<string, StaticFile>> {
  const maxFileBytes = options.maxFileBytes ?? 8 * 1024 * 1024
  const onDisk = new Set(filesUnder(dir))
  const files = new Map<string, StaticFile>()
  for (const file of onDisk) {
    if (file.endsWith('.br') || file.endsWith('.gz')) continue
    const bytes = await readFile(file)
    if (bytes.length > maxFileBytes) continue
    const urlPath = `/${path.relative(dir, file).split(path.sep).join('/')}`
    const entry: StaticFile = {
      contentType: contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      cacheControl: urlPath.startsWith('/assets/') ? immutableCaching : revalidatedCaching,
      identity: representation(bytes, ''),
    }
    if (worthCompressing(file, bytes.length)) {
      const br = onDisk.has(`${file}.br`)
        ? await readFile(`${file}.br`)
        : brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } })
      const gzip = onDisk.has(`${file}.gz`) ? await readFile(`${file}.gz`) : gzipSync(bytes, { level: 9 })
      // A compressed form that is not smaller is not worth a Vary.
      if (br.length < bytes.length) entry.br = representation(br, '-br')
      if (gzip.length < bytes.length) entry.gzip = representation(gzip, '-gz')
    }
    files.set(urlPath, entry)
  }
  return files
}

/** The encoding to send: brotli, then gzip, when the client accepts it (`q=0` refuses). */
export function chosenEncoding(acceptEncoding: string | null, file: StaticFile): Encoding | undefined {
  if (!acceptEncoding || !(file.br || file.gzip)) return undefined
  const accepted = new Set<string>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';')
    const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='))
    if (quality && Number(quality.slice(2)) === 0) continue
    accepted.add(name.trim())
  }
  if (file.br && (accepted.has('br') || accepted.has('*'))) return 'br'
  if (file.gzip && (accepted.has('gzip') || accepted.has('*'))) return 'gzip'
  return undefined
}

/**
 * True when the answer is 304 (RFC 9110, section 13.1.2): `*` (the file exists), or a tag equal to the chosen form's
 * by weak comparison. Another coding's tag does not match: a cache holding the gzip body must not be told it may serve
 * it to a client that asked for brotli.
 */
function noneMatchFails(ifNoneMatch: string, chosen: Representation): boolean {
  if (ifNoneMatch.trim() === '*') return true
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === chosen.etag)
}

/** What to send for a GET or HEAD of a held file: the status, the headers and the body (none for HEAD and 304). */
export function staticAnswer(
  file: StaticFile,
  request: { method: string; headers: { get(name: string): string | null } },
  commonHeaders: Record<string, string>,
): { status: 200 | 304; headers: Record<string, string>; body: Buffer<ArrayBuffer> | null } {
  const encoding = chosenEncoding(request.headers.get('accept-encoding'), file)
  const form = (encoding && file[encoding]) || file.identity
  const headers: Record<string, string> = {
    ...commonHeaders,
    'content-type': file.contentType,
    'cache-control': file.cacheControl,
    etag: form.etag,
  }
  if (file.br || file.gzip) headers.vary = 'Accept-Encoding'
  if (encoding) headers['content-encoding'] = encoding
  const ifNoneMatch = request.headers.get('if-none-match')
  if (ifNoneMatch && noneMatchFails(ifNoneMatch, form)) return { status: 304, headers, body: null }
  headers['content-length'] = String(form.body.length)
  return { status: 200, headers, body: request.method === 'HEAD' ? null : form.body }
}
