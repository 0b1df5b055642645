import type { PlanId } from '#/lib/plans'

// What the pages and the server agree on about a book's files.

/** The cover's stored sizes, by width: the list's thumbnail (shown 32×48) and the book page's (160×240), at 3× and 2×. */
export const coverBoxes = [
  { width: 96, height: 144 },
  { width: 320, height: 480 },
] as const

export type CoverSize = 'small' | 'large'
export const coverWidths: Record<CoverSize, number> = { small: 96, large: 320 }

/** The image types a cover or an attachment may be, with the extensions a file of that type is named with. */
export const imageTypes: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'image/avif': ['avif'],
}

/** What an attachment may be (the server checks its bytes; the page checks its type first). */
export const attachmentTypes: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  ...imageTypes,
}

/** What the file pickers offer. */
export const coverAccept = Object.keys(imageTypes).join(',')
export const attachmentAccept = Object.keys(attachmentTypes).join(',')

/** An image attachment's thumbnail in the list (shown 40×40): square, cropped to the centre. */
export const attachmentThumbnailBox = { width: 96, height: 96 } as const
export const attachmentThumbnailName = 'thumbnail.webp'

/** The longest file name kept (longer ones are shortened, the extension kept). */
export const attachmentNameMax = 200

/** Attachments one book may have. */
export const attachmentsPerBookMax = 100

const megabytes = (count: number) => count * 1024 * 1024

/** Bytes of files (covers and attachments) an organization may keep on each plan. */
export const storageBytesPerPlan: Readonly<Record<PlanId, number>> = {
  free: megabytes(100),
  pro: megabytes(10 * 1024),
  team: megabytes(100 * 1024),
}

/** The largest file one upload may be on each plan, in bytes. */
export const fileBytesPerPlan: Readonly<Record<PlanId, number>> = {
  free: megabytes(5),
  pro: megabytes(25),
  team: megabytes(25),
}
