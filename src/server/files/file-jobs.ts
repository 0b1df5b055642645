import { fileStorage } from '#/server/files/configured-storage'
import { defineJob, enqueue } from '#/server/jobs/queue'
import { log } from '#/server/log'

/** Deletes everything under a prefix (an account's pictures, a book's files): retried for about a day. */
export const deleteFilesJob = defineJob<{ prefix: string }>({
  name: 'files-delete',
  retryLimit: 10,
  retryDelaySeconds: 60,
  retryDelayMaxSeconds: 4 * 3600,
  run: async (_db, { prefix }) => {
    const deleted = await fileStorage().deletePrefix(prefix)
    if (deleted > 0) log().info({ prefix, deleted }, 'files deleted')
  },
})

/**
 * Deletes these folders' files through the queue, or at once where none runs (a command-line task); a storage that
 * is away then is logged, and does not stop what deleted them (an account, a book, an organization).
 */
export async function deleteFoldersLater(prefixes: string[]): Promise<void> {
  for (const prefix of prefixes) {
    if (await enqueue(deleteFilesJob, { prefix })) continue
    await fileStorage()
      .deletePrefix(prefix)
      .catch((error: unknown) => log().error({ err: error, prefix }, 'files of something deleted were not deleted'))
  }
}

/** The files of an account that is gone: its pictures. */
export function deleteAccountFiles(userId: string): Promise<void> {
  return deleteFoldersLater([`avatars/${userId}`])
}

/** The files of an organization that is gone: its logo and what its apps keep under `organizations/{id}/`. */
export function deleteOrganizationFiles(organizationId: string): Promise<void> {
  return deleteFoldersLater([`logos/${organizationId}`, `organizations/${organizationId}`])
}
