import { createFileRoute } from '@tanstack/react-router'
import { m } from '#/paraglide/messages'
import { localeOfRequest } from '#/server/request-locale'

/**
 * Any /.well-known path no other route claims (RFC 8615 addresses are read by programs): a JSON 404, never the page
 * router's redirect to a localized "not found" page. An MCP client that meets a 401 looks for OAuth metadata here
 * (/.well-known/oauth-protected-resource, oauth-authorization-server, openid-configuration); a plain 404 tells it at
 * once that this server names no authorization server: API keys are the way in (docs: MCP).
 */
function wellKnownNotFound({ request }: { request: Request }) {
  const { pathname } = new URL(request.url)
  const message = m.well_known_not_found({ path: pathname }, { locale: localeOfRequest(request) })
  return Response.json({ error: 'NOT_FOUND', message }, { status: 404 })
}

export const Route = createFileRoute('/.well-known/$')({
  server: {
    handlers: {
      GET: wellKnownNotFound,
      POST: wellKnownNotFound,
      PUT: wellKnownNotFound,
      PATCH: wellKnownNotFound,
      DELETE: wellKnownNotFound,
    },
  },
})
