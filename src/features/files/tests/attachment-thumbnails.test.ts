// An image attached to a book shows as a small picture in its list: made once when it is attached, reached only by
// members through a signed link, gone with the attachment. PDFs keep their icon.
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { bookWithTitle as book } from '#/features/books'
import { answerFileRequest } from '#/features/uploads/server'
import { useFileStorage } from '#/server/files/configured-storage'
import type { FileStorage } from '#/server/files/storage'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import { fileStorageCases } from '../../../../tests/integration/file-storage-fixtures'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { answerBookFileUpload } from '../server/book-files'
import { organizationFiles } from '../server/schema'

const photo = async () =>
  new Uint8Array(
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 120, b: 30 } } })
      .jpeg()
      .toBuffer(),
  )
const pdf = new TextEncoder().encode('%PDF-1.7\n% the reading list\n%%EOF\n')

interface Listed {
  id: string
  name: string
  bytes: number
  thumbnailUrl: string | null
}

const cases = fileStorageCases('hatch-attachment-thumbnails-')
const db = () => cases.database().connection.db

describe.each(cases.storages)('image attachments’ thumbnails on %s', (where, storageOf) => {
  let storage: FileStorage
  let h: OrganizationHarness
  let owner: Person
  let reader: Person
  let stranger: Person
  let bookId: string

  const attach = (body: Uint8Array, name: string, type: string) =>
    answerBookFileUpload(
      new Request(`${testOrigin}/api/uploads/books/${bookId}/attachments?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        body: Buffer.from(body),
        headers: { origin: testOrigin, cookie: owner.cookie, 'content-type': type },
      }),
      db(),
      bookId,
      'attachment',
    )
  const read = async (url: string) => {
    if (storage.kind === 's3') return fetch(url)
    const { pathname } = new URL(url)
    return answerFileRequest(new Request(url), decodeURIComponent(pathname.replace('/api/files/', '')))
  }
  const listed = async (who: Person) =>
    (await h.trpc<Listed[]>('query', 'files.attachments', who.cookie, { bookId })).data ?? []

  beforeAll(async () => {
    storage = storageOf()
    useFileStorage(storage)
    h = organizationHarness(db())
    owner = await h.signUp(`Tess Thumbnails ${where}`)
    const organizationId = await h.createOrganization(owner, `Thumbs ${where}`, `thumbs-${where.toLowerCase()}`)
    reader = await h.signUp(`Rhea Reader ${where}`)
    await h.join(organizationId, owner, reader, 'member')
    stranger = await h.signUp(`Sam Stranger ${where}`)
    await h.createOrganization(stranger, `Other ${where}`, `other-thumbs-${where.toLowerCase()}`)
    const created = await h.trpc<{ id: string }>('mutation', 'books.create', owner.cookie, book('Pictures'))
    bookId = created.data?.id ?? ''
  })

  it('lists an attached photo with a small square picture of it, and a PDF without one', async () => {
    const original = await photo()
    expect((await attach(original, 'Shelf.jpg', 'image/jpeg')).status).toBe(201)
    expect((await attach(pdf, 'List.pdf', 'application/pdf')).status).toBe(201)
    const list = await listed(reader)
    expect(list.map((file) => [file.name, file.thumbnailUrl === null])).toEqual([
      ['List.pdf', true],
      ['Shelf.jpg', false],
    ])
    const image = list.find((file) => file.name === 'Shelf.jpg')
    expect(image?.bytes, 'the size shown is the photo’s own').toBe(original.byteLength)
    const thumbnail = await read(image?.thumbnailUrl ?? '')
    expect(thumbnail.status).toBe(200)
    const metadata = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 96, 96])
    expect(await h.trpc('query', 'files.attachments', stranger.cookie, { bookId })).toMatchObject({
      error: { appCode: 'BOOK_NOT_FOUND' },
    })
  })

  it('keeps an image the decoder cannot read whole, without a picture, and deletes the picture with its file', async () => {
    const whole = await photo()
    const cut = whole.subarray(0, Math.floor(whole.byteLength / 3))
    const kept = await attach(cut, 'Half.jpg', 'image/jpeg')
    expect(kept.status).toBe(201)
    const { id } = (await kept.json()) as { id: string }
    const [row] = await db().select().from(organizationFiles).where(eq(organizationFiles.id, id))
    expect(await storage.get(`${row?.folder}/file`)).not.toBeNull()
    expect(await storage.get(`${row?.folder}/thumbnail.webp`)).toBeNull()

    const shelf = (await listed(owner)).find((file) => file.name === 'Shelf.jpg')
    const [shelfRow] = await db()
      .select()
      .from(organizationFiles)
      .where(eq(organizationFiles.id, shelf?.id ?? ''))
    expect(await storage.get(`${shelfRow?.folder}/thumbnail.webp`)).not.toBeNull()
    expect((await h.trpc('mutation', 'files.deleteAttachment', owner.cookie, { id: shelf?.id })).error).toBeUndefined()
    expect(await storage.get(`${shelfRow?.folder}/thumbnail.webp`)).toBeNull()
  })
})
