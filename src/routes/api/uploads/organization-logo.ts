import { createFileRoute } from '@tanstack/react-router'
import { answerLogoUpload } from '#/features/uploads/server/image-uploads'
import { getDb } from '#/server/db/database'

export const Route = createFileRoute('/api/uploads/organization-logo')({
  server: {
    handlers: {
      POST: ({ request }) => answerLogoUpload(request, getDb()),
      DELETE: ({ request }) => answerLogoUpload(request, getDb()),
    },
  },
})
