// Another organization's records, made by the authorization matrix (authorization-matrix.test.ts) for its
// cross-organization calls. An installed app names the inputs of its own procedures that take such records in
// src/features/<app>/tests/foreign-record-inputs.ts, found by file name, so they go when the app is removed.
export interface ForeignRecords {
  bookId: string
  conversationId: string
  memberId: string
  checkoutId: string
  endpointId: string
  deliveryId: string
  fileId: string
}

/** The module an app's inputs live in: procedure path → an input naming the foreign records. */
export interface ForeignRecordInputs {
  foreignRecordInputs: (foreign: ForeignRecords) => Record<string, unknown>
}
