import { defineServerApp } from '#/server/app-manifest'

/** A book's cover and attachments: their covers in the book lists, their storage, and the files of purged books. */
export const serverApp = defineServerApp({
  name: 'files',
  bookCovers: async () => (await import('./book-covers')).bookCoverImages,
  planUsage: async () => {
    const { storageUsed } = await import('./storage-limits')
    return async (db, organizationId) => ({ storage: await storageUsed(db, organizationId) })
  },
  maintenanceTasks: [
    // After the core's 'purging deleted books': their files go with them.
    {
      name: 'deleting the files of purged books',
      run: async (db) => (await import('./purged-files')).deletePurgedBooksFiles(db),
    },
  ],
})
