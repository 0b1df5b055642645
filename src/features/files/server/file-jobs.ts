import { fileStorage } from '#/server/files/configured-storage'
import { defineJob, enqueue } from '#/server/jobs/queue'
import { log } from '#/server/log'

/** Deletes everything under a prefix (an account's pictures): retried when the storage is away, for about a day. */
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

/** The files of an account that is gone: through the queue, or at once where none runs (a command-line task). */
export async function deleteAccountFiles(userId: string): Promise<void> {
  const prefix = `avatars/${userId}`
  if (await enqueue(deleteFilesJob, { prefix })) return
  // No queue here (a command-line task): at once, and a storage that is away does not stop the account's deletion.
  await fileStorage()
    .deletePrefix(prefix)
    .catch((error: unknown) => log().error({ err: error, prefix }, 'the files of a deleted account were not deleted'))
}
