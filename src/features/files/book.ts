import { defineBookApp } from '#/lib/app-manifest'
import { BookAttachments } from './components/book-attachments'
import { BookCoverActions } from './components/book-cover-actions'

/** On a book's page: uploading or removing its cover, and its attachments below the description. */
export const bookApp = defineBookApp({
  name: 'files',
  coverActions: BookCoverActions,
  sections: { attachments: BookAttachments },
})
