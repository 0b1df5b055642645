import { createFileRoute } from '@tanstack/react-router'
import { answerAvatarUpload } from '#/features/uploads/server/image-uploads'
import { getDb } from '#/server/db/database'

export const Route = createFileRoute('/api/uploads/avatar')({
  server: {
    handlers: {
      POST: ({ request }) => answerAvatarUpload(request, getDb()),
      DELETE: ({ request }) => answerAvatarUpload(request, getDb()),
    },
  },
})
