import { createFileRoute } from '@tanstack/react-router'
import { postFeedResponse } from '#/features/blog/server/feeds'

export const Route = createFileRoute('/blog/rss.xml')({
  server: { handlers: { GET: () => postFeedResponse('blog', 'rss') } },
})
