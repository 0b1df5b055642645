import type { PlanId } from '#/lib/plans'

// The book rules' limits: the schemas (schemas.ts) enforce them, messages name them (book-messages.ts).

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
   * A file the import takes: its request must fit the production server's body limit (src/lib/request-body-limit.ts),
   * so the dialog refuses a larger file before uploading it rather than the server cutting the upload off.
   */
  importBytesMax: 1_000_000,
  bulkMax: 500,
  /** Days a deleted book can be restored before it is purged (the maintenance task in server/app.ts). */
  restoreDays: 30,
} as const

export const latestPublishedYear = () => new Date().getFullYear() + bookLimits.yearsAhead

/** `book:update` (or `delete`) allows it on any book; `update-own` (or `delete-own`) only on the person's own. */
export function mayChangeBook(granted: readonly string[], action: 'update' | 'delete', own: boolean): boolean {
  return granted.includes(action) || (own && granted.includes(`${action}-own`))
}

/** Live books an organization may keep on each plan (null: unlimited); the server refuses more (plan-limits.ts). */
export const booksPerPlan: Readonly<Record<PlanId, number | null>> = { free: 50, pro: null, team: null }
