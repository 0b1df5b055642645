import { attachmentNameMax } from '../file-rules'

/** The extension each type an attachment may be is saved under, and the other spellings that mean the same type. */
const extensionsByType: Record<string, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'image/avif': ['avif'],
}

// A last part that reads as an extension: letters and digits with at least one letter (`v2.1` has none).
const extensionPattern = /\.([A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*)$/

/**
 * `name` ending in an extension of `contentType`: a file found to be a PDF downloads as `.pdf` whatever it was called
 * (`x.html` becomes `x.pdf`), so the name never tells the computer to open it as something it is not. A name without
 * an extension gains one; a known type's other spelling (`.jpeg`) stays.
 */
export function nameForType(name: string, contentType: string): string {
  const extensions = extensionsByType[contentType]
  if (!extensions) return name
  const current = extensionPattern.exec(name)
  if (current && extensions.includes(current[1]?.toLowerCase() ?? '')) return name
  const base = current && current.index > 0 ? name.slice(0, current.index) : name
  const extension = `.${extensions[0]}`
  return base.slice(0, attachmentNameMax - extension.length).trimEnd() + extension
}

/**
 * The name a file is kept and downloaded under: the last part of what the browser sent, without control or
 * direction-changing characters, at most `attachmentNameMax` long, ending in the extension of the type its bytes are.
 */
export function cleanFileName(sent: string, contentType: string): string {
  const last = sent.split(/[\\/]/).pop() ?? ''
  const name = last
    .normalize('NFC')
    // Control characters, and format ones (direction overrides that make `exe.pdf` read as `fdp.exe`, zero widths).
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
  if (!name || /^\.+$/.test(name)) return nameForType('attachment', contentType)
  const kept = extensionPattern.exec(name)?.[0] ?? ''
  const shortened = name.length > attachmentNameMax ? name.slice(0, attachmentNameMax - kept.length) + kept : name
  return nameForType(shortened, contentType)
}
