import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { answerFileRequest } from '#/features/uploads/server/file-answers'
import { answerAvatarUpload } from '#/features/uploads/server/image-uploads'
import { users } from '#/server/db/schema'
import { fileLinkSecret, useFileStorage } from '#/server/files/configured-storage'
import { localFileStorage } from '#/server/files/local-storage'
import { testOrigin } from './auth-requests'
import { fileStorageCases } from './file-storage-fixtures'
import { organizationHarness, type Person } from './organization-fixtures'

const photo = async (color: { r: number; g: number; b: number }) =>
  new Uint8Array(
    await sharp({ create: { width: 900, height: 600, channels: 3, background: color } })
      .jpeg()
      .toBuffer(),
  )

const cases = fileStorageCases('hatch-avatars-')
const { storages } = cases
const db = () => cases.database().connection.db

describe.each(storages)('profile pictures on %s', (where, storageOf) => {
  let person: Person
  const upload = (body: Uint8Array | string, headers: Record<string, string> = {}) =>
    answerAvatarUpload(
      new Request(`${testOrigin}/api/uploads/avatar`, {
        method: 'POST',
        body: typeof body === 'string' ? body : Buffer.from(body),
        headers: { origin: testOrigin, cookie: person.cookie, 'content-type': 'image/jpeg', ...headers },
      }),
      db(),
    )
  const imageOf = async () =>
    (await db().select({ image: users.image }).from(users).where(eq(users.id, person.id)))[0]?.image
  const fetchFile = (url: string) => {
    const { pathname, search } = new URL(url)
    return answerFileRequest(new Request(`${testOrigin}${pathname}${search}`), pathname.replace('/api/files/', ''))
  }

  beforeAll(async () => {
    useFileStorage(storageOf())
    person = await organizationHarness(db()).signUp(`Pia Picture ${where}`)
  })

  it('stores an uploaded photo as square WebP pictures, served to anyone and cached for good', async () => {
    const answer = await upload(await photo({ r: 10, g: 120, b: 200 }))
    expect(answer.status).toBe(200)
    const { image } = (await answer.json()) as { image: string }
    expect(image).toMatch(new RegExp(`^${testOrigin}/api/files/avatars/${person.id}/[a-f0-9]{16}-256\\.webp$`))
    expect(await imageOf()).toBe(image)
    for (const url of [image, image.replace('-256.webp', '-64.webp')]) {
      const served = await fetchFile(url)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('image/webp')
      expect(served.headers.get('cache-control')).toContain('immutable')
      expect(served.headers.get('x-content-type-options')).toBe('nosniff')
      const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata()
      expect([metadata.format, metadata.width, metadata.height]).toEqual([
        'webp',
        url.endsWith('-64.webp') ? 64 : 256,
        url.endsWith('-64.webp') ? 64 : 256,
      ])
    }
  })

  it('replaces the old picture, whose files go', async () => {
    const before = (await imageOf()) ?? ''
    const answer = await upload(await photo({ r: 220, g: 40, b: 40 }))
    const { image } = (await answer.json()) as { image: string }
    expect(image).not.toBe(before)
    expect((await fetchFile(before)).status).toBe(404)
    expect((await fetchFile(image)).status).toBe(200)
  })

  it('refuses what is not a picture, whatever it is called or declared as, and changes nothing', async () => {
    const before = await imageOf()
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    for (const [body, type] of [
      [svg, 'image/svg+xml'],
      [svg, 'image/png'],
      ['%PDF-1.7 not a picture', 'image/jpeg'],
    ] as const) {
      const answer = await upload(body, { 'content-type': type })
      expect(answer.status, type).toBe(400)
      expect(await answer.json()).toMatchObject({ code: 'IMAGE_NOT_ACCEPTED', message: expect.stringContaining('SVG') })
    }
    const tooLarge = await upload(new Uint8Array(1024 * 1024 + 1))
    expect([tooLarge.status, ((await tooLarge.json()) as { code: string }).code]).toEqual([413, 'FILE_TOO_LARGE'])
    expect(await imageOf()).toBe(before)
  })

  it('refuses another site’s page and a visitor without a session', async () => {
    const crossSite = await upload(await photo({ r: 0, g: 0, b: 0 }), { origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)
    const anonymous = await upload(await photo({ r: 0, g: 0, b: 0 }), { cookie: '' })
    expect(anonymous.status).toBe(401)
  })

  it('removes the picture and its files', async () => {
    const before = (await imageOf()) ?? ''
    const removed = await answerAvatarUpload(
      new Request(`${testOrigin}/api/uploads/avatar`, {
        method: 'DELETE',
        headers: { origin: testOrigin, cookie: person.cookie },
      }),
      db(),
    )
    expect(removed.status).toBe(200)
    expect(await imageOf()).toBeNull()
    expect((await fetchFile(before)).status).toBe(404)
  })
})

describe('other files on the local disk', () => {
  it('are served only through a signed link, until it expires', async () => {
    const storage = localFileStorage({ root: cases.localRoot, appUrl: testOrigin, secret: fileLinkSecret() })
    useFileStorage(storage)
    await storage.put('organizations/o1/attachments/a.pdf', new TextEncoder().encode('%PDF-1.7'), 'application/pdf')
    const link = new URL(await storage.temporaryUrl('organizations/o1/attachments/a.pdf', 60))
    const key = 'organizations/o1/attachments/a.pdf'
    const read = await answerFileRequest(new Request(link), key)
    expect([read.status, read.headers.get('content-disposition')]).toEqual([200, 'inline'])
    expect(read.headers.get('content-security-policy')).toContain('sandbox')
    expect((await answerFileRequest(new Request(`${testOrigin}/api/files/${key}`), key)).status).toBe(403)
    link.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 1))
    expect((await answerFileRequest(new Request(link), key)).status).toBe(403)
    expect((await answerFileRequest(new Request(`${testOrigin}/api/files/../x`), '../x')).status).toBe(404)
  })
})
