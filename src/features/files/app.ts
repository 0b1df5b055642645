import { defineApp } from '#/lib/app-manifest'

/** Files: a book's uploaded cover and its attachments, counted against the plan's storage. */
export const app = defineApp({ name: 'files', needs: ['books'] })
