import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import type { UploadRefusal } from './send-upload'

// Checked in the page before anything is sent, so a file the server would refuse is refused at once rather than after
// its whole upload; the server checks again, by the bytes.

/** Whether the picked file is one of `types`: by the type the browser gives it, or its extension when it gives none. */
export function isOfType(file: File, types: Readonly<Record<string, readonly string[]>>): boolean {
  if (file.type) return Object.hasOwn(types, file.type)
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? ''
  return Object.values(types).some((extensions) => extensions.includes(extension))
}

/** The refusal for a file past the plan's size (naming both), or null; unknown while the plan loads: the server says. */
export function sizeRefusal(file: { name: string; size: number }, limit: number | undefined): UploadRefusal | null {
  if (limit === undefined || file.size <= limit) return null
  const size = (bytes: number) => formatFileSize(bytes, currentIntlLocale())
  return {
    code: 'FILE_TOO_LARGE_FOR_PLAN',
    message: m.book_files_too_large({ name: file.name, size: size(file.size), limit: size(limit) }),
  }
}
