// The book rules' limits: the schemas (src/features/books/schemas.ts) enforce them, messages name them.

export const bookLimits = {
  titleMax: 200,
  authorsMax: 20,
  authorMax: 120,
  tagsMax: 10,
  tagMax: 40,
  descriptionMax: 5000,
  coverUrlMax: 2000,
  yearMin: 1000,
  /** Years ahead of today a forthcoming edition may carry. */
  yearsAhead: 5,
  pageSizeMax: 100,
  importRowsMax: 10_000,
  /**
   * A file the import takes: its request must fit the production server's body limit (requestBodyBytesMax), so
   * the dialog refuses a larger file before uploading it rather than the server cutting the upload off.
   */
  importBytesMax: 1_000_000,
  bulkMax: 500,
  /** Days a deleted book can be restored before it is purged (src/server/maintenance.ts). */
  restoreDays: 30,
} as const

/** The production server's limit on a request body outside the upload routes (`answerWithinBodyLimit` in src/server/request-body.ts). */
export const requestBodyBytesMax = 1024 * 1024

export const latestPublishedYear = () => new Date().getFullYear() + bookLimits.yearsAhead

/** `book:update` (or `delete`) allows it on any book; `update-own` (or `delete-own`) only on the person's own. */
export function mayChangeBook(granted: readonly string[], action: 'update' | 'delete', own: boolean): boolean {
  return granted.includes(action) || (own && granted.includes(`${action}-own`))
}
