import type { Database } from '#/server/db/client'
import type { ForeignRecords } from '../../../../tests/integration/foreign-records'

// Its checkouts are the core's (billing's orders); it brings no records of its own.
export const foreignRecordKinds: string[] = []
export const foreignRecordSecrets: string[] = []

/** Paddle's procedure that takes a checkout, as the authorization matrix calls it with another's. */
export async function foreignRecordInputs(_db: Database, _foreign: ForeignRecords): Promise<Record<string, unknown>> {
  return { 'paddle.get': { transactionId: 'txn_01foreign' } }
}
