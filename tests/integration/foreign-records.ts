// Another organization's records, made by the authorization matrix (authorization-matrix.test.ts) for its
// cross-organization calls. An installed app makes its own records and names the inputs of its procedures that take
// them in src/features/<app>/tests/foreign-record-inputs.ts, found by file name, so they go when the app is removed.
import type { Database } from '#/server/db/client'

/** The core's records of the other organization, and who owns it. */
export interface ForeignRecords {
  organizationId: string
  ownerId: string
  memberId: string
  /** The owner's session cookie, for records an app makes through its own procedures (billing: a checkout). */
  ownerCookie: string
  /**
   * What an app made there for the apps that need it (books: `bookId`, which the files attach to): the apps are asked
   * in name order, and an app comes after the apps it needs.
   */
  apps: Record<string, string>
}

/** The module an app's inputs live in. */
export interface ForeignRecordInputs {
  /** The kinds of record its policy rows name (`names`), which the matrix then expects it to try. */
  foreignRecordKinds: readonly string[]
  /** Words of the other organization's records that no answer may show. */
  foreignRecordSecrets?: readonly string[]
  /** Makes the app's records in the other organization; procedure path → an input naming them. */
  foreignRecordInputs: (db: Database, foreign: ForeignRecords) => Promise<Record<string, unknown>>
}
