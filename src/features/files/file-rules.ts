// What the pages and the server agree on about a book's files.

/** The cover's stored sizes, by width: the list's thumbnail (shown 32×48) and the book page's (160×240), at 3× and 2×. */
export const coverBoxes = [
  { width: 96, height: 144 },
  { width: 320, height: 480 },
] as const

export type CoverSize = 'small' | 'large'
export const coverWidths: Record<CoverSize, number> = { small: 96, large: 320 }

/** What an attachment may be (by its bytes; the file picker offers these). */
export const attachmentAccept = 'application/pdf,image/png,image/jpeg,image/webp,image/gif,image/avif'

/** The longest file name kept (longer ones are shortened, the extension kept). */
export const attachmentNameMax = 200

/** Attachments one book may have. */
export const attachmentsPerBookMax = 100
