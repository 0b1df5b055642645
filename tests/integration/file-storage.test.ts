// The two places files can live, through the one interface: the local disk (a fresh clone) and an S3-compatible
// bucket (s3rver, started here, speaking the S3 protocol with signatures). Each: write, read, delete, delete a whole
// prefix, and a temporary link that works, then stops working (and, on the local disk, cannot be forged).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sniffImage, squareWebpImages } from '#/server/files/images'
import { localFileStorage } from '#/server/files/local-storage'
import { s3FileStorage } from '#/server/files/s3-storage'
import { type FileStorage, isStorageKey, signFileLink, verifyFileLink } from '#/server/files/storage'
import { startTestS3Server } from '../support/s3-server'

const secret = 'a-secret-of-this-install-for-signing-links'
const localRoot = mkdtempSync(path.join(tmpdir(), 'hatch-files-'))
let s3: Awaited<ReturnType<typeof startTestS3Server>>
const backends: [string, () => FileStorage][] = [
  ['the local disk', () => localFileStorage({ root: localRoot, appUrl: 'http://localhost:3000', secret })],
  ['S3 (s3rver)', () => s3FileStorage(s3.settings)],
]

beforeAll(async () => {
  s3 = await startTestS3Server()
})
afterAll(async () => {
  await s3.close()
  rmSync(localRoot, { recursive: true, force: true })
})

describe.each(backends)('files on %s', (_name, storageOf) => {
  const bytes = new TextEncoder().encode('%PDF-1.7 a tiny document')

  it('writes, reads back and deletes a file', async () => {
    const storage = storageOf()
    await storage.put('organizations/o1/attachments/a1.pdf', bytes, 'application/pdf')
    expect(await storage.get('organizations/o1/attachments/a1.pdf')).toEqual({
      body: bytes,
      contentType: 'application/pdf',
    })
    await storage.delete('organizations/o1/attachments/a1.pdf')
    expect(await storage.get('organizations/o1/attachments/a1.pdf')).toBeNull()
    expect(await storage.get('organizations/o1/never-written.pdf')).toBeNull()
  })

  it('deletes everything under a prefix and nothing beside it', async () => {
    const storage = storageOf()
    for (const key of ['organizations/o2/a.pdf', 'organizations/o2/covers/b.webp', 'organizations/o20/c.pdf']) {
      await storage.put(key, bytes, 'application/pdf')
    }
    expect(await storage.deletePrefix('organizations/o2')).toBe(2)
    expect(await storage.get('organizations/o2/covers/b.webp')).toBeNull()
    expect(await storage.get('organizations/o20/c.pdf')).not.toBeNull()
    expect(await storage.deletePrefix('organizations/nothing-here')).toBe(0)
  })

  it('refuses keys that could leave their folder', async () => {
    const storage = storageOf()
    for (const key of ['../etc/passwd', 'a/../../b', '/absolute', 'a//b', 'a/./b', 'spaces are not keys', '']) {
      expect(isStorageKey(key), key).toBe(false)
      await expect(storage.put(key, bytes, 'text/plain'), key).rejects.toThrow(/Not a storage key/)
    }
  })
})

describe('temporary links', () => {
  it('S3: a presigned link reads the file until it expires', async () => {
    const storage = s3FileStorage(s3.settings)
    await storage.put('organizations/o3/a.pdf', new TextEncoder().encode('hello'), 'application/pdf')
    // S3 dates a link to the whole second: asked for 3 s, it lasts between 2 and 3.
    const url = await storage.temporaryUrl('organizations/o3/a.pdf', 3)
    const read = await fetch(url)
    expect([read.status, await read.text()]).toEqual([200, 'hello'])
    // s3rver checks a link's key and expiry but not its v4 signature (unimplemented there); S3 itself checks both.
    const otherKey = await fetch(url.replace('X-Amz-Credential=S3RVER', 'X-Amz-Credential=SOMEONE'))
    expect(otherKey.status).toBe(403)
    await new Promise((resolve) => setTimeout(resolve, 3100))
    expect((await fetch(url)).status).toBe(403)
  })

  it('local disk: the link is signed for its key and expiry, and refused after', async () => {
    const storage = localFileStorage({ root: localRoot, appUrl: 'http://localhost:3000', secret })
    const url = new URL(await storage.temporaryUrl('organizations/o4/a.pdf', 60))
    expect(url.pathname).toBe('/api/files/organizations/o4/a.pdf')
    const expires = Number(url.searchParams.get('expires'))
    const signature = url.searchParams.get('signature') ?? ''
    const link = { key: 'organizations/o4/a.pdf', expires, signature }
    expect(verifyFileLink(secret, link)).toBe(true)
    expect(verifyFileLink(secret, { ...link, key: 'organizations/o5/a.pdf' }), 'another key').toBe(false)
    expect(verifyFileLink(secret, { ...link, expires: expires + 60 }), 'a later expiry').toBe(false)
    expect(verifyFileLink(secret, { ...link, downloadName: 'x.pdf' }), 'a download name added').toBe(false)
    expect(verifyFileLink('another install', link)).toBe(false)
    expect(verifyFileLink(secret, link, (expires + 1) * 1000)).toBe(false)
    const named = new URL(await storage.temporaryUrl('organizations/o4/a.pdf', 60, { downloadName: 'Report 报告.pdf' }))
    expect(named.searchParams.get('name')).toBe('Report 报告.pdf')
    const namedLink = { ...link, signature: named.searchParams.get('signature') ?? '' }
    expect(verifyFileLink(secret, { ...namedLink, downloadName: 'Report 报告.pdf' })).toBe(true)
    expect(verifyFileLink(secret, { ...namedLink, downloadName: 'evil.html' }), 'another name').toBe(false)
    // Links made in one window are one link, so the browser's cache holds the image behind them.
    const signedAt = new Date(Math.floor(Date.now() / 60_000) * 60_000)
    expect(await storage.temporaryUrl('organizations/o4/a.pdf', 60, { signedAt })).toBe(
      await storage.temporaryUrl('organizations/o4/a.pdf', 60, { signedAt }),
    )
    expect(signFileLink(secret, 'k', 1)).not.toBe(signFileLink(secret, 'k', 2))
  })
})

describe('images', () => {
  const png = () =>
    sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 80, b: 20 } } })
      .png()
      .toBuffer()

  it('are recognised by their bytes and resized into square WebP images', async () => {
    const bytes = new Uint8Array(await png())
    expect(sniffImage(bytes)).toBe('png')
    const result = await squareWebpImages(bytes, [64, 256])
    if (!result.ok) throw new Error(result.reason)
    for (const size of [64, 256]) {
      const image = result.images.get(size) as Uint8Array
      expect(sniffImage(image)).toBe('webp')
      expect(await sharp(image).metadata()).toMatchObject({ format: 'webp', width: size, height: size })
    }
  })

  it('refuses an SVG, a text file and a truncated image, whatever they are called', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')
    expect(await squareWebpImages(svg, [64])).toEqual({ ok: false, reason: 'not-an-image' })
    expect(await squareWebpImages(new TextEncoder().encode('GIF89a but not really'), [64])).toEqual({
      ok: false,
      reason: 'unreadable-image',
    })
    const truncated = new Uint8Array(await png()).slice(0, 200)
    expect(await squareWebpImages(truncated, [64])).toEqual({ ok: false, reason: 'unreadable-image' })
  })
})
