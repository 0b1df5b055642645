import type { UploadRefusal } from '#/features/uploads'
import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'

/** The refusal for a file past the plan's size (naming both), or null; unknown while the plan loads: the server says. */
export function sizeRefusal(file: { name: string; size: number }, limit: number | undefined): UploadRefusal | null {
  if (limit === undefined || file.size <= limit) return null
  const size = (bytes: number) => formatFileSize(bytes, currentIntlLocale())
  return {
    code: 'FILE_TOO_LARGE_FOR_PLAN',
    message: m.book_files_too_large({ name: file.name, size: size(file.size), limit: size(limit) }),
  }
}
