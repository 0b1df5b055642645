import { createFileRoute } from '@tanstack/react-router'

// Any /api path no other server route claims: a JSON 404, never the page router's locale redirect.
function apiNotFound({ request }: { request: Request }) {
  const { pathname } = new URL(request.url)
  return Response.json({ error: 'NOT_FOUND', message: `No API route at ${pathname}` }, { status: 404 })
}

export const Route = createFileRoute('/api/$')({
  server: {
    handlers: { GET: apiNotFound, POST: apiNotFound, PUT: apiNotFound, PATCH: apiNotFound, DELETE: apiNotFound },
  },
})
