import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Where files live, behind one interface (docs/decisions/034-files.md): an S3-compatible bucket when S3_BUCKET is set
 * (AWS, R2, MinIO, …, through the official AWS SDK), otherwise `DATA_DIR/files` on the local disk, so a fresh clone
 * stores files with no set-up. Keys are paths such as `avatars/{user}/{hash}-256.webp`; the caller decides them.
 */
export interface FileStorage {
  readonly kind: 'local' | 's3'
  put(key: string, body: Uint8Array, contentType: string): Promise<void>
  /** The file's bytes and type, or null when there is none. */
  get(key: string): Promise<{ body: Uint8Array; contentType: string } | null>
  delete(key: string): Promise<void>
  /** Deletes every file whose key starts with `prefix` (an account's, an organization's); returns how many. */
  deletePrefix(prefix: string): Promise<number>
  /** Every stored file's key, in no set order (a backup copies them all). */
  keys(): AsyncIterable<string>
  /**
   * A link that reads the file for `seconds` and then stops working: S3's presigned GET, or for the local disk this
   * app's `/api/files/…` with an expiry and a signature only this server can make. `downloadName` makes it a download
   * under that name; `signedAt` (default now) lets links made within one window be the same link, so a browser caches
   * the image behind it.
   */
  temporaryUrl(key: string, seconds: number, options?: TemporaryUrlOptions): Promise<string>
}

export interface TemporaryUrlOptions {
  downloadName?: string
  signedAt?: Date
}

/** The `Content-Disposition` of a download under `name` (RFC 6266: an ASCII fallback and the UTF-8 name). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/** A key as storage takes it: segments of letters, digits, `.`, `_` and `-`, no empty or dot-only segment. */
export function isStorageKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= 512 &&
    key.split('/').every((segment) => /^[A-Za-z0-9._-]+$/.test(segment) && !/^\.+$/.test(segment))
  )
}

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(key.slice(0, 100))}`)
}

/**
 * The signature of a local temporary link: HMAC-SHA256 over the key, expiry and download name with a secret of this
 * install.
 */
export function signFileLink(secret: string, key: string, expires: number, downloadName = ''): string {
  return createHmac('sha256', `files:${secret}`).update(`${key}\n${expires}\n${downloadName}`).digest('base64url')
}

/** Whether a local temporary link is genuine and not expired (constant-time comparison). */
export function verifyFileLink(
  secret: string,
  link: { key: string; expires: number; signature: string; downloadName?: string },
  now = Date.now(),
) {
  const { key, expires, signature, downloadName } = link
  if (!Number.isSafeInteger(expires) || expires * 1000 < now) return false
  const expected = Buffer.from(signFileLink(secret, key, expires, downloadName))
  const given = Buffer.from(signature)
  return expected.length === given.length && timingSafeEqual(expected, given)
}

export interface FileLinkQuery {
  expires: number
  signature: string
  downloadName?: string
}

/**
 * The parts of a local temporary link as this server writes them, or null for anything else: `expires` exactly once
 * and in plain decimal, `signature` exactly once, `name` at most once. `Number()` would read `0x…`, `N.0` or ` N` as
 * the signed expiry, so one signed link could be spelled many ways (and a second `expires` could mean anything).
 */
export function readFileLinkQuery(params: URLSearchParams): FileLinkQuery | null {
  const expires = params.getAll('expires')
  const signature = params.getAll('signature')
  const names = params.getAll('name')
  if (expires.length !== 1 || signature.length !== 1 || names.length > 1) return null
  const [expiresText = '', signatureText = ''] = [expires[0], signature[0]]
  if (!/^(?:0|[1-9][0-9]{0,15})$/.test(expiresText)) return null
  const seconds = Number(expiresText)
  if (!Number.isSafeInteger(seconds)) return null
  return { expires: seconds, signature: signatureText, ...(names.length ? { downloadName: names[0] } : {}) }
}
