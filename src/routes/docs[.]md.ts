import { createFileRoute } from '@tanstack/react-router'
import { docsMarkdownResponse } from '#/features/docs/server/markdown-response'

export const Route = createFileRoute('/docs.md')({
  server: { handlers: { GET: () => docsMarkdownResponse([]) } },
})
