// Every write the server acknowledged during the soak, as the load generator saw it: checked afterwards against the
// database, each must be there exactly once.

export interface Acknowledged {
  /** Emails of accounts whose sign-up answered 200. */
  accounts: Set<string>
  /** Titles of books created (tRPC books.create, MCP create_book, each CSV import row); every title is unique. */
  bookTitles: Set<string>
  /** The description each acknowledged books.update wrote, by book id (one connection edits a book at a time). */
  bookEdits: Map<string, string>
  /** Imports answered with every row imported. */
  imports: number
  /** Orders opened by billing.startCheckout, and those whose local checkout was settled as paid. */
  checkoutsStarted: Set<string>
  ordersPaid: Set<string>
  /** Page view ids of beacons answered 202 (counted). */
  beacons: Set<string>
  /** Read-your-write failures: billing.overview not on Pro right after a paid checkout. */
  planNotShown: number
}

export function noneAcknowledged(): Acknowledged {
  return {
    accounts: new Set(),
    bookTitles: new Set(),
    bookEdits: new Map(),
    imports: 0,
    checkoutsStarted: new Set(),
    ordersPaid: new Set(),
    beacons: new Set(),
    planNotShown: 0,
  }
}
