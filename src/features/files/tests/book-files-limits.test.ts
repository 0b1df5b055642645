// A book's attachments under load and under false names: the per-book limit holds when uploads arrive together, and a
// file downloads under a name whose extension is the type its bytes are, whatever it was called.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookWithTitle as book } from '#/features/books'
import { answerFileRequest } from '#/features/uploads/server'
import { fileLinkSecret, useFileStorage } from '#/server/files/configured-storage'
import { localFileStorage } from '#/server/files/local-storage'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { attachmentsPerBookMax } from '../file-rules'
import { answerBookFileUpload } from '../server/book-files'
import { organizationFiles } from '../server/schema'

const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.7\n% ${text}\n%%EOF\n`)

describe.each(engines)('a book’s attachment limit and names on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  let owner: Person
  let organizationId: string
  const root = mkdtempSync(path.join(tmpdir(), 'hatch-book-files-limits-'))
  const db = () => database.connection.db

  const upload = (bookId: string, body: Uint8Array, name: string, type = 'application/pdf') =>
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
  const newBook = async (title: string) => {
    const created = await h.trpc<{ id: string }>('mutation', 'books.create', owner.cookie, book(title))
    expect(created.error, 'the book is made').toBeUndefined()
    return created.data?.id ?? ''
  }
  const attachmentsOf = async (bookId: string) =>
    (await db().select().from(organizationFiles).where(eq(organizationFiles.bookId, bookId))).length

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    useFileStorage(localFileStorage({ root, appUrl: testOrigin, secret: fileLinkSecret() }))
    h = organizationHarness(db())
    owner = await h.signUp(`Lena Limits ${engine}`)
    organizationId = await h.createOrganization(owner, `Limits ${engine}`, `limits-${engine}`)
  })
  afterAll(async () => {
    useFileStorage(undefined)
    await database.dispose()
    rmSync(root, { recursive: true, force: true })
  })

  it('lets uploads sent together fill a book to its limit and not one past it', async () => {
    const bookId = await newBook('The Crowded Book')
    const room = 3
    await db()
      .insert(organizationFiles)
      .values(
        Array.from({ length: attachmentsPerBookMax - room }, (_, index) => ({
          id: `filler-${engine}-${index}`,
          organizationId,
          bookId,
          kind: 'attachment' as const,
          folder: `organizations/${organizationId}/books/${bookId}/filler-${index}`,
          name: `filler-${index}.pdf`,
          contentType: 'application/pdf',
          bytes: 1,
        })),
      )
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => upload(bookId, pdf(`at once ${index}`), `at-once-${index}.pdf`)),
    )
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses, 'as many accepted as there was room for').toEqual([201, 201, 201, 400, 400, 400, 400, 400])
    for (const refused of answers.filter((answer) => answer.status === 400)) {
      expect(await refused.json()).toMatchObject({ code: 'ATTACHMENT_LIMIT' })
    }
    expect(await attachmentsOf(bookId)).toBe(attachmentsPerBookMax)
  })

  it('saves and downloads a file under the extension of what its bytes are, whatever it was called', async () => {
    const bookId = await newBook('The Misnamed Book')
    const cases = [
      ['x.html', 'x.pdf'],
      ['setup.exe', 'setup.pdf'],
      ['no extension', 'no extension.pdf'],
      ['minutes v2.1', 'minutes v2.1.pdf'],
      ['Report.PDF', 'Report.PDF'],
      ['会议记录.pdf', '会议记录.pdf'],
    ] as const
    for (const [sent, kept] of cases) {
      const answer = await upload(bookId, pdf(sent), sent)
      expect(answer.status, sent).toBe(201)
      const { id, name } = (await answer.json()) as { id: string; name: string }
      expect(name, sent).toBe(kept)
      const link = await h.trpc<{ url: string }>('mutation', 'files.downloadLink', owner.cookie, { id })
      const url = new URL(link.data?.url ?? '')
      const file = await answerFileRequest(
        new Request(url),
        decodeURIComponent(url.pathname.replace('/api/files/', '')),
      )
      expect(file.status, sent).toBe(200)
      expect(decodeURIComponent(file.headers.get('content-disposition') ?? ''), sent).toContain(`''${kept}`)
    }
  })

  it('downloads a file kept under a false extension before names followed types under the right one', async () => {
    const bookId = await newBook('The Old Book')
    const answer = await upload(bookId, pdf('old'), 'old.pdf')
    const { id } = (await answer.json()) as { id: string }
    await db().update(organizationFiles).set({ name: 'old.html' }).where(eq(organizationFiles.id, id))
    const link = await h.trpc<{ url: string }>('mutation', 'files.downloadLink', owner.cookie, { id })
    const url = new URL(link.data?.url ?? '')
    const file = await answerFileRequest(new Request(url), decodeURIComponent(url.pathname.replace('/api/files/', '')))
    expect(file.headers.get('content-disposition')).toContain('filename="old.pdf"')
  })

  it('answers an upload its sender cancels halfway without an error, and stores nothing of it', async () => {
    const bookId = await newBook('The Cancelled Upload')
    // What the server sees when the page's Cancel closes the connection mid-body.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(pdf('the first half'))
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
      },
    })
    const answer = await answerBookFileUpload(
      new Request(`${testOrigin}/api/uploads/books/${bookId}/attachments?name=half.pdf`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { origin: testOrigin, cookie: owner.cookie, 'content-type': 'application/pdf' },
      } as RequestInit),
      db(),
      bookId,
      'attachment',
    )
    expect([answer.status, ((await answer.json()) as { code: string }).code]).toEqual([400, 'UPLOAD_CANCELLED'])
    expect(await attachmentsOf(bookId)).toBe(0)
  })
})
