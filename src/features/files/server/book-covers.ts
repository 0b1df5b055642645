import { and, eq, inArray } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { memberImageUrl } from '#/server/files/member-links'
import { coverWidths } from '../file-rules'
import { organizationFiles } from './schema'

export interface CoverImage {
  small: string
  large: string
}

/** The uploaded covers of these books, as links for members (each book's small and large image). */
export async function bookCoverImages(
  db: Pick<Database, 'select'>,
  organizationId: string,
  bookIds: string[],
): Promise<Map<string, CoverImage>> {
  const covers = new Map<string, CoverImage>()
  if (bookIds.length === 0) return covers
  const rows = await db
    .select({ bookId: organizationFiles.bookId, folder: organizationFiles.folder })
    .from(organizationFiles)
    .where(
      and(
        eq(organizationFiles.organizationId, organizationId),
        eq(organizationFiles.kind, 'cover'),
        inArray(organizationFiles.bookId, bookIds),
      ),
    )
  for (const row of rows) {
    if (!row.bookId) continue
    const [small, large] = await Promise.all([
      memberImageUrl(`${row.folder}/${coverWidths.small}.webp`),
      memberImageUrl(`${row.folder}/${coverWidths.large}.webp`),
    ])
    covers.set(row.bookId, { small, large })
  }
  return covers
}
