import { createFileRoute } from '@tanstack/react-router'
import { postFeedResponse } from '#/features/blog/server/feeds'

export const Route = createFileRoute('/changelog/atom.xml')({
  server: { handlers: { GET: () => postFeedResponse('changelog', 'atom') } },
})
