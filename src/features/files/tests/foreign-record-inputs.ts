import type { Database } from '#/server/db/client'
import type { ForeignRecords } from '../../../../tests/integration/foreign-records'
import { organizationFiles } from '../server/schema'

export const foreignRecordKinds = ['file']

/** The files' procedures that take a book's file, as the authorization matrix calls them with another's. */
export async function foreignRecordInputs(db: Database, foreign: ForeignRecords): Promise<Record<string, unknown>> {
  const fileId = 'file_not_yours'
  await db.insert(organizationFiles).values({
    id: fileId,
    organizationId: foreign.organizationId,
    bookId: foreign.apps.bookId,
    kind: 'attachment',
    folder: `organizations/${foreign.organizationId}/books/${foreign.apps.bookId}/${fileId}`,
    name: 'Not yours.pdf',
    contentType: 'application/pdf',
    bytes: 1000,
  })
  return {
    'files.attachments': { bookId: foreign.apps.bookId },
    'files.downloadLink': { id: fileId },
    'files.deleteAttachment': { id: fileId },
    'files.removeCover': { bookId: foreign.apps.bookId },
  }
}
