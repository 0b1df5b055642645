import { randomUUID } from 'node:crypto'
import { and, count, eq, isNull } from 'drizzle-orm'
import { mayChangeBook } from '#/features/books/server'
import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { jsonRefusal } from '#/server/ai/answers'
import type { Database } from '#/server/db/client'
import { books, organizations } from '#/server/db/schema'
import { fileStorage } from '#/server/files/configured-storage'
import { deleteFoldersLater } from '#/server/files/file-jobs'
import { sniffAttachment, webpImages } from '#/server/files/images'
import { notAllowed, organizationUploadCaller } from '#/server/files/upload-caller'
import { organizationPlan, PlanLimitError } from '#/server/plan-limits'
import { readBodyBytes } from '#/server/request-body'
import { inLocale, localeOfRequest } from '#/server/request-locale'
import {
  attachmentsPerBookMax,
  attachmentThumbnailBox,
  attachmentThumbnailName,
  coverBoxes,
  fileBytesPerPlan,
} from '../file-rules'
import { cleanFileName } from './file-names'
import { organizationFiles } from './schema'
import { assertStorageCapacity } from './storage-limits'

export type BookFileKind = 'cover' | 'attachment'

export const bookFilesFolder = (organizationId: string, bookId: string) =>
  `organizations/${organizationId}/books/${bookId}`

/** The book if it is the organization's and not in the trash. */
export async function liveBook(db: Pick<Database, 'select'>, organizationId: string, bookId: string) {
  const [book] = await db
    .select({ id: books.id, createdById: books.createdById })
    .from(books)
    .where(and(eq(books.id, bookId), eq(books.organizationId, organizationId), isNull(books.deletedAt)))
  return book
}

interface PreparedFile {
  name: string
  contentType: string
  objects: { name: string; body: Uint8Array; contentType: string }[]
  bytes: number
}

/** A cover: an image (by its bytes) in the sizes the pages show, as WebP. */
async function coverFile(bytes: Uint8Array): Promise<PreparedFile | Response> {
  const converted = await webpImages(bytes, coverBoxes)
  if (!converted.ok) return jsonRefusal(400, 'IMAGE_NOT_ACCEPTED')
  const objects = [...converted.images].map(([width, body]) => ({
    name: `${width}.webp`,
    body,
    contentType: 'image/webp',
  }))
  const stored = objects.reduce((sum, object) => sum + object.body.byteLength, 0)
  return { name: 'cover.webp', contentType: 'image/webp', objects, bytes: stored }
}

/**
 * An attachment: a PDF or an image by its bytes, kept as it is. A declared type that is not what the bytes are (an
 * HTML page sent as `image/png`, a PNG sent as a PDF) is refused, so nothing is stored under a false type.
 */
async function attachmentFile(request: Request, bytes: Uint8Array): Promise<PreparedFile | Response> {
  const kind = sniffAttachment(bytes)
  const declared = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const declaredFits = declared === '' || declared === 'application/octet-stream' || declared === kind?.contentType
  if (!kind || !declaredFits) return typeRefusal()
  const name = cleanFileName(new URL(request.url).searchParams.get('name') ?? '', kind.contentType)
  const objects = [{ name: 'file', body: bytes, contentType: kind.contentType }]
  const thumbnail = kind.contentType.startsWith('image/') ? await attachmentThumbnail(bytes) : null
  if (thumbnail) objects.push({ name: attachmentThumbnailName, body: thumbnail, contentType: 'image/webp' })
  // The size is the file's own, as the list shows it: a thumbnail's few KB are not the member's to count.
  return { name, contentType: kind.contentType, objects, bytes: bytes.byteLength }
}

/**
 * The list's picture of an image attachment, made once here rather than on every view. An image the decoder cannot
 * read whole is still kept (it is the member's file), shown with the image icon instead.
 */
async function attachmentThumbnail(bytes: Uint8Array): Promise<Uint8Array | null> {
  const converted = await webpImages(bytes, [attachmentThumbnailBox])
  return converted.ok ? (converted.images.get(attachmentThumbnailBox.width) ?? null) : null
}

// The upload routes' refusals are worded here, on the server, in the request's language: the page shows the message
// it is sent, so these texts stay out of the scripts every page loads (src/lib/errors.ts).
const size = (bytes: number) => formatFileSize(bytes, currentIntlLocale())

function storageRefusal(error: PlanLimitError): Response {
  const message = m.error_code_PLAN_LIMIT_STORAGE({ limit: size(error.limit) })
  return jsonRefusal(403, error.code, message, {}, { limit: String(error.limit), size: size(error.limit) })
}

function fileSizeRefusal(limit: number): Response {
  const message = m.error_code_FILE_TOO_LARGE_FOR_PLAN({ limit: size(limit) })
  return jsonRefusal(413, 'FILE_TOO_LARGE_FOR_PLAN', message, {}, { limit: String(limit) })
}

class AttachmentLimitReached extends Error {}

function attachmentRefusal(): Response {
  const limit = String(attachmentsPerBookMax)
  return jsonRefusal(400, 'ATTACHMENT_LIMIT', m.error_code_ATTACHMENT_LIMIT({ limit }), {}, { limit })
}

async function attachmentsOf(db: Pick<Database, 'select'>, bookId: string): Promise<number> {
  const [attached] = await db
    .select({ value: count() })
    .from(organizationFiles)
    .where(and(eq(organizationFiles.bookId, bookId), eq(organizationFiles.kind, 'attachment')))
  return attached?.value ?? 0
}

const typeRefusal = () => jsonRefusal(400, 'FILE_NOT_ACCEPTED', m.error_code_FILE_NOT_ACCEPTED())

/**
 * `POST /api/uploads/books/{book}/cover` and `…/attachments?name=…`: the file's bytes as the body, from this site's
 * pages, by a member who may update the book. Within the plan's file size and storage (else a translated refusal
 * naming the limit); the objects are written first and kept only if the row counting them commits, so a refused or
 * failed upload leaves nothing stored. A new cover replaces the old one.
 */
export function answerBookFileUpload(
  request: Request,
  db: Database,
  bookId: string,
  kind: BookFileKind,
): Promise<Response> {
  return inLocale(localeOfRequest(request), new URL(request.url).origin, async () => {
    const caller = await organizationUploadCaller(request, db, { book: ['read'] })
    if (caller instanceof Response) return caller
    const { organizationId, userId } = caller
    const book = await liveBook(db, organizationId, bookId)
    if (!book) return jsonRefusal(404, 'BOOK_NOT_FOUND')
    if (!mayChangeBook(caller.access.permissions.book ?? [], 'update', book.createdById === userId)) {
      return notAllowed({ book: ['update'] })
    }
    // Refused early when already full, before the body is read; counted again under the lock below.
    if (kind === 'attachment' && (await attachmentsOf(db, bookId)) >= attachmentsPerBookMax) return attachmentRefusal()
    const { plan } = await organizationPlan(db, organizationId)
    const bytes = await bodyUnlessCancelled(request, fileBytesPerPlan[plan.id])
    if (bytes === 'cancelled') return jsonRefusal(400, 'UPLOAD_CANCELLED')
    if (bytes === 'too-large') return fileSizeRefusal(fileBytesPerPlan[plan.id])
    const prepared = kind === 'cover' ? await coverFile(bytes) : await attachmentFile(request, bytes)
    if (prepared instanceof Response) return prepared
    try {
      // Checked before writing anything (a replaced cover's bytes are freed by the replacement), and again below.
      const replacing = kind === 'cover' ? await coverBytes(db, bookId) : 0
      await assertStorageCapacity(db, organizationId, prepared.bytes - replacing)
    } catch (error) {
      if (error instanceof PlanLimitError) return storageRefusal(error)
      throw error
    }
    const id = randomUUID()
    const folder = `${bookFilesFolder(organizationId, bookId)}/${id}`
    const storage = fileStorage()
    let replaced: string[]
    try {
      for (const object of prepared.objects) {
        await storage.put(`${folder}/${object.name}`, object.body, object.contentType)
      }
      replaced = await db.transaction(async (tx) => {
        // One upload at a time per organization past this point: two cannot both fit in the last free bytes.
        await tx
          .select({ id: organizations.id })
          .from(organizations)
          .where(eq(organizations.id, organizationId))
          .for('update')
        const old =
          kind === 'cover'
            ? await tx
                .delete(organizationFiles)
                .where(and(eq(organizationFiles.bookId, bookId), eq(organizationFiles.kind, 'cover')))
                .returning({ folder: organizationFiles.folder })
            : []
        await assertStorageCapacity(tx, organizationId, prepared.bytes)
        // Under the lock: parallel uploads counted before it could all see room for one more.
        if (kind === 'attachment' && (await attachmentsOf(tx, bookId)) >= attachmentsPerBookMax) {
          throw new AttachmentLimitReached()
        }
        await tx.insert(organizationFiles).values({
          id,
          organizationId,
          bookId,
          kind,
          folder,
          name: prepared.name,
          contentType: prepared.contentType,
          bytes: prepared.bytes,
          createdById: userId,
        })
        return old.map((row) => row.folder)
      })
    } catch (error) {
      await storage.deletePrefix(folder).catch(() => undefined)
      if (error instanceof PlanLimitError) return storageRefusal(error)
      if (error instanceof AttachmentLimitReached) return attachmentRefusal()
      throw error
    }
    await deleteFoldersLater(replaced)
    return Response.json(
      { id, name: prepared.name, contentType: prepared.contentType, bytes: prepared.bytes },
      { status: 201, headers: { 'cache-control': 'no-store' } },
    )
  })
}

/**
 * The body, or 'cancelled' when the sender went away before it was all sent (the page's Cancel): an everyday event
 * with nobody left to answer, not a server error to log.
 */
async function bodyUnlessCancelled(request: Request, maxBytes: number) {
  try {
    return await readBodyBytes(request, maxBytes)
  } catch (error) {
    if (request.signal.aborted || (error as { code?: unknown } | null)?.code === 'ECONNRESET') return 'cancelled'
    throw error
  }
}

async function coverBytes(db: Pick<Database, 'select'>, bookId: string): Promise<number> {
  const [cover] = await db
    .select({ bytes: organizationFiles.bytes })
    .from(organizationFiles)
    .where(and(eq(organizationFiles.bookId, bookId), eq(organizationFiles.kind, 'cover')))
  return cover?.bytes ?? 0
}
