import { and, desc, eq } from 'drizzle-orm'
import { mayChangeBook } from '#/features/books/server'
import { books, users } from '#/server/db/schema'
import { deleteFoldersLater } from '#/server/files/file-jobs'
import { memberDownloadUrl, memberImageUrl } from '#/server/files/member-links'
import { AppError, createRouter, orgProcedure } from '#/server/trpc/init'
import { attachmentThumbnailName } from '../file-rules'
import { bookFilesInput, fileIdInput } from '../schemas'
import { liveBook } from './book-files'
import { nameForType } from './file-names'
import { organizationFiles } from './schema'

const bookNotFound = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'BOOK_NOT_FOUND', message: 'This book does not exist' })
const fileNotFound = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'FILE_NOT_FOUND', message: 'This file does not exist' })

interface Caller {
  user: { id: string }
  permissions: { book?: readonly string[] }
}

function requireBookUpdate(ctx: Caller, book: { createdById: string | null }) {
  if (mayChangeBook(ctx.permissions.book ?? [], 'update', book.createdById === ctx.user.id)) return
  throw new AppError({
    code: 'FORBIDDEN',
    appCode: 'NOT_ALLOWED_TO_ACCESS_RESOURCE',
    message: 'You are not allowed to access resource: book',
    params: { resource: 'book' },
  })
}

/** One of the organization's files on a live book (a book in the trash keeps its files out of reach until restored). */
async function fileOnLiveBook(ctx: { db: Parameters<typeof liveBook>[0] }, organizationId: string, id: string) {
  const [row] = await ctx.db
    .select({ file: organizationFiles, bookCreatedById: books.createdById, deletedAt: books.deletedAt })
    .from(organizationFiles)
    .innerJoin(books, eq(books.id, organizationFiles.bookId))
    .where(and(eq(organizationFiles.id, id), eq(organizationFiles.organizationId, organizationId)))
  if (!row || row.deletedAt) throw fileNotFound()
  return row
}

export const filesRouter = createRouter({
  /** A book's attachments, newest first: what each is, how large, who added it and when; an image's thumbnail. */
  attachments: orgProcedure({ book: ['read'] })
    .input(bookFilesInput)
    .query(async ({ ctx, input }) => {
      if (!(await liveBook(ctx.db, ctx.organization.id, input.bookId))) throw bookNotFound()
      const rows = await ctx.db
        .select({
          id: organizationFiles.id,
          folder: organizationFiles.folder,
          name: organizationFiles.name,
          contentType: organizationFiles.contentType,
          bytes: organizationFiles.bytes,
          createdAt: organizationFiles.createdAt,
          createdByName: users.name,
        })
        .from(organizationFiles)
        .leftJoin(users, eq(users.id, organizationFiles.createdById))
        .where(
          and(
            eq(organizationFiles.organizationId, ctx.organization.id),
            eq(organizationFiles.bookId, input.bookId),
            eq(organizationFiles.kind, 'attachment'),
          ),
        )
        .orderBy(desc(organizationFiles.createdAt), desc(organizationFiles.id))
      return Promise.all(
        rows.map(async ({ folder, ...file }) => ({
          ...file,
          // Signed like a cover's link, so the browser caches it; an image kept before thumbnails has none (the page
          // shows its icon when this fails to load).
          thumbnailUrl: file.contentType.startsWith('image/')
            ? await memberImageUrl(`${folder}/${attachmentThumbnailName}`)
            : null,
        })),
      )
    }),

  /** A link that downloads the attachment under its name for a few minutes: members only ever get these. */
  downloadLink: orgProcedure({ book: ['read'] })
    .input(fileIdInput)
    .mutation(async ({ ctx, input }) => {
      const { file } = await fileOnLiveBook(ctx, ctx.organization.id, input.id)
      if (file.kind !== 'attachment') throw fileNotFound()
      // Files kept before names followed their type download under one that does.
      return { url: await memberDownloadUrl(`${file.folder}/file`, nameForType(file.name, file.contentType)) }
    }),

  /** Deletes an attachment (who may update the book): gone from the list and the quota at once, from storage soon. */
  deleteAttachment: orgProcedure({ book: ['read'] })
    .input(fileIdInput)
    .mutation(async ({ ctx, input }) => {
      const { file, bookCreatedById } = await fileOnLiveBook(ctx, ctx.organization.id, input.id)
      if (file.kind !== 'attachment') throw fileNotFound()
      requireBookUpdate(ctx, { createdById: bookCreatedById })
      await ctx.db.delete(organizationFiles).where(eq(organizationFiles.id, file.id))
      await deleteFoldersLater([file.folder])
      return { id: file.id }
    }),

  /** Removes the uploaded cover (the book shows its cover URL, if any, or none). */
  removeCover: orgProcedure({ book: ['read'] })
    .input(bookFilesInput)
    .mutation(async ({ ctx, input }) => {
      const book = await liveBook(ctx.db, ctx.organization.id, input.bookId)
      if (!book) throw bookNotFound()
      requireBookUpdate(ctx, book)
      const removed = await ctx.db
        .delete(organizationFiles)
        .where(and(eq(organizationFiles.bookId, book.id), eq(organizationFiles.kind, 'cover')))
        .returning({ folder: organizationFiles.folder })
      await deleteFoldersLater(removed.map((row) => row.folder))
      return { removed: removed.length }
    }),
})
