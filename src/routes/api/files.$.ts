import { createFileRoute } from '@tanstack/react-router'
import { answerFileRequest } from '#/features/uploads/server/file-answers'

export const Route = createFileRoute('/api/files/$')({
  server: { handlers: { GET: ({ request, params }) => answerFileRequest(request, params._splat ?? '') } },
})
