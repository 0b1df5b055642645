import { createFileRoute } from '@tanstack/react-router'
import { answerBookFileUpload } from '#/features/files/server/book-files'
import { getDb } from '#/server/db/database'

export const Route = createFileRoute('/api/uploads/books/$bookId/cover')({
  server: {
    handlers: { POST: ({ request, params }) => answerBookFileUpload(request, getDb(), params.bookId, 'cover') },
  },
})
